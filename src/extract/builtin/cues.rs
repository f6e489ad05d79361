//! The builtin extractor's cues (DESIGN §6): the patterns that mark a statement as a rule, a
//! fact about the person, a place outside the code or a project decision, and the ones that mark
//! it as a question, a one-off or task talk; and the project choices ("slots": package manager,
//! test runner…) that tell which memory a correction is about. Cues that review needs too live in
//! [`crate::memory::statement`].

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("builtin pattern {pattern}: {e}"))
}

macro_rules! pattern {
    ($name:ident, $re:expr) => {
        pub(super) static $name: LazyLock<Regex> = LazyLock::new(|| re($re));
    };
}

pattern!(
    EXPLICIT,
    r"(?i)^(?:(?:ok(?:ay)?|so|also|and|btw|oh|one more thing)[,:]?\s+)?(?:please\s+)?(?:(?:remember|memori[sz]e|note|keep in mind|don't forget|do not forget|make a note|for the record|fyi|for future reference)(?:\s+(?:this|that|for next time|for later|for the future))?(?:\s*[:,-]\s*|\s+that\s+|\s+to\s+|\s+)|(?:请)?(?:记住|记一下|记下来?|备注|注意)[：:，,]?\s*)"
);
pattern!(
    REMEMBER_THESE,
    r"(?i)^(?:(?:and|also|so|please)[,]?\s+)*(?:please\s+)?(?:remember|note|keep in mind|save|memori[sz]e)\s+(?:both|all|this|that|these|those|it|them|all of (?:this|that|it|them)|(?:both|all) of (?:these|those|them))(?:\s+(?:for next time|for later|please)|\s+(?:so|because|for|since)\b.*)?\W*$|^(?:请)?(?:记住|记下)(?:这些|这个|这两点|这几点|以上|上面的)?\W*$"
);
pattern!(
    THINGS_TO_REMEMBER,
    r"(?i)^(?:(?:ok(?:ay)?|so|also|and|btw)[,.]?\s+)*(?:a few|some|several|two|three|couple of|the following)?\s*(?:things|notes|points|facts)\s+(?:to|you should|for you to)\s+(?:keep in mind|remember|know|note)\s*[:：]\s*|^(?:请)?(?:记一下|记住|记下|注意)(?:这|以下)?(?:几件事|几点|几个事|这些|以下)[：:]\s*"
);
pattern!(
    DISCOURSE,
    r"(?i)^(?:(?:also|and|btw|by the way|oh|ps|p\.s\.|one more thing|another thing|plus|heads[- ]up(?: for later)?|fyi|for context|context(?: for [a-z ]{1,20})?|quick one(?: while i remember)?|heads[- ]up first|one more(?: thing)?(?: for the record)?|update on [a-z ]{1,20}|some context(?: for [a-z ]{1,20})?)\s*[:,，：—-]?\s+|(?:另外|还有|顺便说一下|顺便说一句|对了|跟你说一下|跟你说一声|说一声|提一下|提醒一下|同步一下|先说一下|说明一下)\s*[:,，：]?\s*)+"
);
pattern!(
    ANAPHOR,
    r"(?i)^(?:\S+\s+){0,4}?(?:we\s+(?:picked|chose|use|kept|went with)\s+(?:it|that|this)\b|(?:it|that|this)(?:'s| is| was)\s+(?:how|what|why|the way|on purpose)\b)|^(?:(?:and|so|but)\s+)?(?:it|that|this)(?:'s| is| was)\b|^(?:这个|那个|它)(?:是|就是)?"
);
pattern!(
    BARE_OBJECT,
    r"(?i)^(?:\S+\s+)?(?:stop|do|fix|change|try|use|keep|leave|drop|remember|note|save)\s+(?:it|this|that|them|these|those)(?:\s+for (?:next time|later|the future|future reference))?\W*$|^(?:it|this|that|them) for (?:next time|later|the future|future reference)\W*$"
);
// "don't ask", "don't judge", "no worries": an aside, not a rule.
pattern!(
    ASIDE,
    r"(?i)^(?:(?:oh|and|but|so|also|lol|haha|ugh)[,]?\s+)*(?:don'?t|do not|no)\s+(?:ask|judge|worry|worries|panic|bother|laugh|hate me|get me started|mind me|blame me|at me)\b[\W]*$"
);
// "don't save anything about currency": about what memory keeps, which is no memory itself.
pattern!(
    NOT_TO_REMEMBER,
    r"(?i)\b(?:don'?t|do not|never|no need to)\s+(?:save|remember|store|memori[sz]e|note down|keep a note)\b|别记|不要记|不用记"
);
pattern!(
    POLITE,
    r"(?i)^(?:would|it'd|it would) be (?:great|nice|better|good|awesome|helpful|ideal) if\b"
);
pattern!(
    SUBJECT,
    r"(?i)\b(?:we|we're|we've|our|us|they|they're|the team|ops|legal|compliance|security|product|management|customers|users|clients?)\b|我们|他们|团队|客户"
);
pattern!(
    REQUEST,
    r"(?i)^(?:(?:ok(?:ay)?|so|and|hm+|hey)[,.]?\s+)*(?:can|could|would) you\s+(?:please\s+)?"
);
pattern!(
    LOG_OR_CODE,
    r"(?i)^(?:error|warning|note|help|traceback|at |\s*-->|\s*\|)|error\[|::|=>|[{}]|\(\)"
);
pattern!(
    TASK_ANYWHERE,
    r"(?i)\b(?:can you|could you|would you)\b|帮我|麻烦你|请你"
);
pattern!(
    CONTINUES,
    r"(?i)^(?:until then|so|that means|which means|this means|meaning|in the meantime|till then|after that|before that|otherwise|在那之前|在此之前|之后|所以|因此|否则)\b"
);
pattern!(
    LEAD_IN,
    r"(?i)^(?:(?:no|nope|yes|yeah|ok(?:ay)?|right|well)[,.!]?\s+)+|^(?:不|对|好)[，,]\s*"
);
pattern!(
    TASK,
    r"(?i)^(?:(?:ok(?:ay)?|so|and|then|now|also|great|thanks|cool)[,.!]?\s+)*(?:let's|lets|go ahead|go with|go for|put|run|fix|push|commit|add|write|make|do|start|create|update|try|check|look|open|show|give|can you|could you|would you|please (?:fix|run|add|update|look|check|make|put|write|open)|merge|deploy|ship|finish|continue|use option|carry on|proceed|revert|rename|delete|remove|refactor|implement|read|fetch|summari[sz]e|visit|go through|check out|backfill|walk|change|bump|tag|take|generate|leave|skip|collapse|scan|sketch|explain|tell|send|ping|hold on|wait|thanks|thank you|great|cool|nice|perfect)\b|^(?:先|帮我|跑|提交|改|把|看看|那先|麻烦|继续|好的|谢谢|行)"
);
pattern!(WORD, r"[A-Za-z']+");
pattern!(
    IDE_CONTEXT,
    r"(?s)<(ide_[a-z_]+|system-reminder)>.*?</(?:ide_[a-z_]+|system-reminder)>"
);
pattern!(
    CLAUSE_START,
    r"(?:[,;:—–]|\s-)\s+(?:(?:and|but|so|also|though|plus|btw|fwiw)\s+)?|\s(?:and|but|so|because|since)\s+|[，；：]\s*"
);
pattern!(MAJOR_SEPARATOR, r"\s[—–]\s|;\s|；");
pattern!(STALE_VALUE, r",\s*not\s+[^\s,.;]+");
pattern!(
    NAMED_PLACE,
    r"(?i)\b(?:tracked (?:in|on)|lives? in|stored in|listed in|logged (?:in|to)|under|are in|is in|kept in|documented in|goes? in|are on|is on|posted in|post in|ask in|see the|check the)\b|在|见"
);
pattern!(
    BACK_REFERENCE,
    r"(?i)\b(?:them|those|these)\b|\b(?:do|add|use|put|write|make|keep|leave)\s+(?:it|that|this)\b|这些|那些"
);
pattern!(
    CORRECTED_VALUE,
    r"(?i)\b(?:is|are|was)\s+(?:now\s+)?\S+,?\s+not\s+\S+|\bnot\s+\S+,?\s+but\s+\S+|\b(?:is|are) now\b|不是\S+而是|改成|改为"
);
pattern!(
    RETRACTION,
    r"(?i)^(?:(?:ah|oh|ok|wait|hmm)[,!.]?\s+)*(?:scratch (?:what i said|that)|ignore what i said|never mind what i said)(?: about [^—–:]{1,40})?\s*[—–:-]\s*"
);
pattern!(
    PLAN,
    r"(?i)\b(?:i'll|i will|i'm going to|let me|let's|we'll see)\b|我(?:会|来|先)"
);
pattern!(
    POINTS_BACK,
    r"(?i)\b(?:(?:that|this|these|those) (?:pattern|rule|format|style|convention|way|naming|one)|like (?:this|that)|stick to (?:that|this|it)|do that|that always|this way|that way)\b|这样|那样"
);
pattern!(
    SCOPE_LEAD,
    r"(?i)^(?:(?:and|also|so|but|ok(?:ay)?)[,]?\s+)?(?:in [a-zA-Z0-9_./-]+ only\b|for this (?:pr|task|change|branch|ticket|one|session|file)(?: only)?|for today|just for today|just this once|this time only|only for this (?:pr|task|change|branch|ticket))\b|^(?:这次|今天)(?:先|就)?"
);
pattern!(
    RULES_HEADER,
    r"(?i)\b(?:rules?|conventions?|guidelines?|ground rules|house rules|规则|规范|约定)\b[^:：]{0,40}[:：]\s*$"
);
pattern!(
    SCOPED_HEADER,
    r"(?i)(?:for (?:today|now|this (?:task|pr|session|one))|today|right now|这次|今天)\W*[:：]\s*$"
);
pattern!(FORGET_ZH, r"(?:忘掉|忘记|忘了吧|删掉|不用记了?|别记了?)");
pattern!(
    FORGET,
    r"(?i)^(?:(?:ok(?:ay)?|also|and|actually|oh|ugh|so|yeah|right)[,:]?\s+)*(?:(?:please|you can|you may|just)\s+)?(?:forget(?:\s+about)?(?:\s+(?:that|what i said about|the (?:note|memory|thing) about|my|our|the))?|ignore what i said about|disregard what i said about|you can forget|no need to remember|(?:请)?(?:忘掉|忘记|忘了|删掉|不用再?记|别记)(?:关于)?)\s*"
);
pattern!(
    CORRECTION,
    r"(?i)^(?:(?:argh|ugh|oops|oh|ah|hmm|hm)[,!.]?\s+)?(?:actually|correction|sorry|wait|scratch that|i was wrong|i misspoke|i mixed (?:it|them) up|to correct myself|update|change of plan(?:s)?|其实|更正|纠正|说错了|不对)\b[,:]?\s*|\b(?:is|are) (?:gone|dead|no more)\b|\breplaced (?:it |that |them )?with\b|\bscratch (?:what i said|that)\b|\b(?:slipped|postponed|pushed back|delayed)\b|\b(?:was|were|got) renamed\b|\brenamed to\b|\bhas moved to\b|\b\S+,\s*not\s+\S+|\b(?:is|are) (?:outdated|out of date|wrong|stale)\b|调整|改到|改为|\b(?:switched|moved|migrated|changed)\s+(?:over\s+)?(?:to|from)\b|\bno longer\b|\bnot anymore\b|\banymore\b|\binstead of\b|改成|改用|换成|不再"
);
pattern!(
    QUESTION_START,
    r"(?i)^(?:should|shall|could|can|would|will|do|does|did|is|are|was|were|what|why|where|which|who|have|has|any idea|wdyt|thoughts)\b"
);
pattern!(
    HYPOTHETICAL,
    r"(?i)\b(?:what if|suppose|supposing|imagine|hypothetically|in theory|let's say|if we ever|would it be|i wonder|maybe we should|we could|we might|perhaps)\b|假如|如果我们|要是|是不是|能不能|可不可以|吗$|呢$"
);
pattern!(
    EPHEMERAL,
    r"(?i)\bin [a-zA-Z0-9_./-]+\.[a-zA-Z0-9_]+ only\b|\bonly (?:in|for) this (?:file|view|component|module|class|function|script|notebook)\b|\bthrowaway\b|^(?:don't|do not|never mind)\s+[a-zA-Z0-9_]+\s+(?:it|this|that|them|those|these)\b(?:\s+(?:in there|here|there|yet|now))?$|^(?:don't|do not)\s+[a-zA-Z0-9_]+\s+(?:it|this|that)\s+in there\b|\b(?:for now|right now|this time|just this once|for this (?:task|pr|file|change|commit|session|one|run)|in this (?:pr|file|function|branch|commit)|temporarily|at the moment|for the moment|don't worry|never mind|nevermind|don't know|don't think|not sure|yet\b|until (?:this|the) (?:task|test|build) (?:passes|is done))|暂时|这次|先不|目前先"
);
pattern!(
    USER,
    r"(?i)^(?:(?:btw|fyi|also|oh|and|so)[,]?\s+)?(?:i'm|i am|im)\s+(?:a|an|the|our|the team's|one of the|new to|fairly new to|pretty new to|very new to|not (?:very )?familiar with|(?:very |quite |pretty )?(?:familiar|experienced|comfortable|fluent) (?:with|in)|coming from|primarily|mostly|mainly|responsible for|in charge of|on the \S+ team|a \S+ (?:engineer|developer|dev|designer|scientist|manager|lead|student|researcher))|^(?:(?:btw|fyi|also)[,]?\s+)?(?:i've|i have) (?:been (?:writing|working|using|doing|programming|coding)|spent|worked|written|used|never (?:used|written|worked|touched))|^(?:(?:btw|fyi|also)[,]?\s+)?(?:my (?:role|background|job|title|team|expertise|day job|main language) (?:is|was)|i work (?:as|on|at|in|mostly|mainly|primarily)|i (?:lead|manage|run|own|maintain) (?:the|our|a)|i (?:mostly|mainly|primarily|usually) (?:write|work|code|use|do)|i don't (?:really )?know (?:much )?(?:about )?(?:rust|go|python|java|typescript|javascript|react|css|sql|kubernetes|k8s|the frontend|the backend|frontend|backend)|i know (?:\S+ )?(?:well|very well|inside out))|^(?:我是|我在\S*(?:工作|上班|团队)|我做了|我写了|我用了|我刚(?:开始)?(?:接触|学|入门|转|从|来|加入)|我(?:之前|以前)(?:是|做|在|一直)|我(?:不太|不怎么|不)(?:懂|熟悉|会)|我(?:很|比较|非常)?熟悉|我(?:还)?不熟|我负责|我的(?:背景|角色|职位|工作)|我主要)"
);
pattern!(
    USER_BACKGROUND,
    r"(?i)^(?:(?:so|and|btw|fwiw|also|for context|context)[,:]?\s+)*(?:i(?:'m| am)\s+(?:\S+\s+){0,3}?(?:engineer|developer|dev|designer|scientist|analyst|manager|lead|architect|student|researcher|intern|sre|devops|admin|founder|cto|consultant|freelancer|contractor|maintainer|programmer|tester|qa)s?\b|i(?:'m| am) (?:~|about |around )?[a-zA-Z0-9_]+ (?:months?|years?) into\b|i (?:came|come) from\b|i (?:did|spent|have) (?:[a-zA-Z0-9_]+ )?(?:years?|decades?) (?:of|in|doing|writing|working)\b|i(?:'ve| have) (?:[a-zA-Z0-9_]+ )?(?:years?) (?:of|in)\b|i studied\b|i(?:'ve| have) been (?:a|an)\b)|\b(?:[a-z-]+ )?(?:appsec|security|qa|sre|devops|platform|infra|data|ml|design|frontend|backend|mobile|student|intern|designer|writer|maintainer|pm) here\b|^(?:我研[一二三]|我(?:大[一二三四]|博[一二三四五]|读研|读博|在读)|我的?课题是|课题是)|\b(?:is my (?:first|native|mother) (?:language|tongue)|my (?:first|native|mother) (?:language|tongue) is|english is not my first language|i'm not a native)\b"
);
pattern!(
    USER_EXCLUDE,
    r"(?i)^(?:i'm|i am|im)\s+(?:a (?:bit|little)|going|trying|looking|not sure|sure|done|back|here|working on (?:the|this|it)|about to|getting|seeing|confused|stuck|wondering|thinking|asking|afraid|happy|glad|sorry|ok|okay|fine|in the middle)|我是说|我是想|我是不是"
);
pattern!(URL, r#"https?://[^\s<>"'`)\]]+"#);
pattern!(CHANNEL, r"(?:^|\s)#[a-z][a-z0-9_\-]{2,}");
pattern!(
    REFERENCE_CUE,
    r"(?i)\b(?:dashboards?|docs?|documentation|wiki|runbooks?|playbook|tracker|tracked|tracking|issues? (?:are|is|go)|tickets?|board|backlog|channel|slack|discord|confluence|notion|jira|linear|grafana|datadog|sentry|kibana|pagerduty|figma|status page|spec(?:ification)?s?|design doc|rfc|postmortems?|on-?call|alerts?|metrics|logs are|ci (?:is|runs)|pipeline|staging (?:is|lives)|api reference|handbook|style guide|vault|1password|bitwarden|lastpass|doppler|infisical|google drive|shared drive|sharepoint|google docs?|sheets?|spreadsheet|miro|loom|vanta|wandb|weights & biases|mlflow|airflow|looker|metabase|tableau|amplitude|mixpanel|posthog|launchdarkly|statuspage|opsgenie|honeycomb|new relic|splunk|gitbook|swagger|postman|storybook|knowledge base|wiki page|w&b|confluence page|runs? (?:are )?logged)\b|看板|文档|频道|仪表盘|监控|工单|需求池|规范|群|放在|存在|设计稿|飞书|语雀|钉钉"
);
pattern!(
    REFERENCE_PLACE,
    r"(?i)\b(?:is|are|lives?|live|tracked|kept|documented|posted|go|goes|found|at|in|on|see|check|use)\b|在|见|看|用"
);
pattern!(
    PROJECT,
    r"(?i)\b(?:we(?:'ve| have)? (?:decided|chose|agreed|went with|are going with|'re going with|picked|settled on|standardi[sz]ed on|committed to|moved|switched|migrated|are moving|'re moving|are migrating|'re migrating|are switching|'re switching|will (?:drop|stop|deprecate|sunset|remove)|can't|cannot|have to|must|need to support|support|only support|don't support|are not allowed|aren't allowed)|the (?:decision|reason|plan|goal|deadline|cutoff|freeze|launch|release|demo|audit|migration) (?:is|was|for)|(?:code|merge|feature|release) freeze|deadline|due (?:on|by)|launch(?:es|ing)? (?:on|is)|release (?:is|on|goes)|ships? (?:on|by)|cut(?:ting)? the release|(?:legal|compliance|security|the client|the customer|customers|management|product|finance|the auditors?) (?:requires?|needs?|wants?|asked|insists?|mandates?|says)|owns? the|is responsible for|is the (?:owner|point of contact|contact|maintainer|tech lead)|ask \S+ (?:about|before|for)|(?:handles|maintains|approves) (?:the|all|our)|freez(?:e|es|ing)|release cut|goes out|go(?:es)? live|rolls? out|sunset(?:ting|s)?|deprecat(?:e|es|ed|ing)|end[- ]of[- ]life|owned by|sign-?off|needs? (?:their|an?|the) (?:approval|review)|until then|no [a-zA-Z0-9_]+ changes|belongs? to|we(?:'re| are) on|(?:production|prod|staging) (?:runs?|is on|uses)|we only vendor|vendored|only runs|won't (?:stand up|support|allow|approve|accept)|(?:have|has) been (?:really |very )?clear|release branch|(?:gets|get|is|will be) cut|(?:will be|are|is) (?:pinned|frozen)|frozen|force updates?|auditors?|read-only (?:access|mode)|requires?|mandates?|contractual(?:ly)?|data residency|gdpr|hipaa|pci|soc ?2|certif[a-zA-Z0-9_]+|we stay on|we(?:'re| are) staying on|until we ship|no (?:deploys?|merges?|releases?|changes|pushes) (?:to|until|before|on|for)\b|(?:has|have|needs?) to be (?:merged|done|shipped|ready|in|landed) (?:before|by)|before then|land(?:s|ing)? (?:on|next|this)|deadline|gets? (?:wiped|reset|rebuilt|redeployed|restored)|every (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|night|morning|weekend)s?|(?:starts?|begins?|ends?|closes?|opens?) (?:tomorrow|today|on|next|this)|only (?:bug ?fixes|hotfixes|critical fixes|security fixes)|nothing (?:may|can|should|must) (?:deploy|merge|ship|go)|(?:has|have|needs?) to be [a-z]+ (?:before|by)|slipped|postponed|pushed (?:back )?to|delayed to)\b|验收|只合|只修|封版|挂着|必须|之前(?:必须|要|得)|只读|下线|切到|灰度|迁移|我们(?:决定|选|定了|选择|同意|统一|约定|改用|换成|只支持|不支持|必须|需要)|因为|由于|冻结|截止|上线|发布|交付|负责|客户要求|合规|法务|审计|上级要求|演示"
);
pattern!(
    DATE_PHRASE,
    r"(?i)\b(?:today|tonight|tomorrow|the day after tomorrow|next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|end of (?:the )?(?:week|month|quarter|sprint)|eod|eow)\b|今天|明天|后天|下周|下个?月|月底|本周|这周"
);
pattern!(
    DATE_ABSOLUTE,
    r"\b\d{4}-\d{2}-\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b"
);
pattern!(
    AFFIRMATIVE,
    r"(?i)^(?:yes|yep|yeah|yup|sure|ok(?:ay)?|sounds good|please do|do it|go ahead|agreed|correct|right|exactly|absolutely|definitely|that works|good idea|对|好|好的|可以|行|是的|没问题|嗯)\b"
);
pattern!(
    PROPOSAL,
    r"(?i)^(?:should i|shall i|do you want me to|would you like me to|want me to|should we|may i|can i)\s+(?P<rest>.+?)\s*\?$|^(?P<zh>.+?)(?:吗|好吗|可以吗|行吗)[？?]$"
);
pattern!(
    WHY,
    r"(?i)\b(?:because|since|as|so that|so|in order to|due to|—|--)\s+(?P<why>.+)$|(?:因为|由于|为了)(?P<zh>.+)$"
);
pattern!(
    WHEN,
    r"(?i)\b(?P<when>(?:before|after|when|whenever|every time|each time|if)\s+[^,.;]+)"
);
pattern!(
    FIRST_PERSON,
    r"(?i)^(?:(?:btw|fyi|also|oh|and|so)[,]?\s+)?(?:i'm|i am|im)\b"
);
pattern!(
    FIRST_PERSON_HAVE,
    r"(?i)^(?:(?:btw|fyi|also|oh|and|so)[,]?\s+)?(?:i've|i have)\b"
);
pattern!(
    FIRST_PERSON_I,
    r"(?i)^(?:(?:btw|fyi|also|oh|and|so)[,]?\s+)?i\b"
);
pattern!(MY, r"(?i)\bmy\b");
// The person speaking of themselves after the start of a sentence, one group per form
// (`drafts::of_the_user` says it of the user).
pattern!(
    FIRST_PERSON_LATER,
    r"(?i)\b(?:(?P<am>i'm|i am|im)|(?P<have>i've)|(?P<would>i'd)|(?P<will>i'll)|(?P<was>i was)|(?P<myself>myself)|(?P<me>me)|(?P<i>i))\b(?:[^/.\w]|$)"
);
pattern!(
    CREDENTIAL,
    r"(?i)\b(?:password|passwd|pwd|passphrase|login|credentials?|secret|token|api[ _-]?key|username)\b|密码|口令|账号"
);
pattern!(ME, r"(?i)\b(?:i|i'm|i've|i'd|my|me|myself)\b|我");

// Words that lead into what a person says without being part of it, beyond the segmenter's
// DISCOURSE ("Sorry: …", "For what it's worth, …", "By way of introduction, …"; "sorry" also
// marks a correction, so sentences keep them): a description starts after them.
pattern!(
    DESCRIPTION_LEAD_IN,
    r"(?i)^(?:(?:so|sorry|ok(?:ay)?|anyway|fwiw|for what it'?s worth|just so you know|quick note|by way of introduction|be aware that|note that)\b[,:;.!]*\s+)+"
);
// A sentence that asks for something ("Please readdress the summary."): no reason for what
// came before it.
pattern!(
    ASKS,
    r"(?i)^(?:(?:ok(?:ay)?|so|and|also|then|now|but)[,.]?\s+)*(?:please|pls|plz|kindly|can you|could you|would you|will you|let's|let us)\b|^(?:请|麻烦|帮我)"
);
// A when-clause about the task at hand ("before you go further", "before we start on PAY-12"):
// when to do it this once, not how to apply a rule.
pattern!(
    NOW_TIMING,
    r"(?i)^(?:before|after|when)\s+(?:you|we|i)\s+(?:start|begin|go (?:any )?further|continue|proceed|dive in|get started|go on)\b"
);
// A "when" clause with nothing after its keyword once a closing "please" is gone.
pattern!(
    BARE_OCCASION,
    r"(?i)^(?:before|after|when|whenever|every time|each time|if)$"
);
pattern!(
    HISTORY_VERB,
    r"(?i)\b(?:commit(?:s|ted)?|revert(?:s|ed)?|merged?|cherry-pick(?:s|ed)?|rebased?|bisect(?:ed)?|squash(?:ed)?)\b|回滚|合并|提交|撤销|回退"
);
pattern!(HEX_RUN, r"(?i)\b[0-9a-f]{7,40}\b");

/// Whether a sentence tells git history: a commit named by its hash beside what was done with
/// it ("Kasia reverted it in commit 4e1a9c0 because …"). Derivable from the repository, never a
/// memory, whatever else the sentence says.
pub(super) fn is_git_history(text: &str) -> bool {
    HISTORY_VERB.is_match(text)
        && HEX_RUN.find_iter(text).any(|m| {
            let run = m.as_str();
            run.bytes().any(|b| b.is_ascii_digit()) && run.bytes().any(|b| b.is_ascii_alphabetic())
        })
}

/// Choices a project makes once, between alternatives: a statement about one is about the same
/// memory as any other statement on the same choice, so a correction finds the memory it
/// corrects even when it shares no word with it ("we use npm" → "we switched to pnpm").
const SLOTS: &[(&str, &[&str])] = &[
    (
        "package-manager",
        &["npm", "pnpm", "yarn", "bun", "pip", "poetry", "uv"],
    ),
    (
        "indentation",
        &[
            "tabs",
            "spaces",
            "two-space",
            "four-space",
            "2-space",
            "4-space",
            "缩进",
        ],
    ),
    (
        "quotes",
        &["single quotes", "double quotes", "单引号", "双引号"],
    ),
    (
        "test-runner",
        &["jest", "vitest", "pytest", "mocha", "unittest", "nextest"],
    ),
    (
        "formatter",
        &[
            "prettier",
            "black",
            "rustfmt",
            "gofmt",
            "ruff format",
            "biome",
        ],
    ),
    (
        "linter",
        &[
            "eslint",
            "ruff",
            "clippy",
            "golangci-lint",
            "pylint",
            "flake8",
        ],
    ),
    (
        "database",
        &[
            "postgres",
            "postgresql",
            "mysql",
            "sqlite",
            "mongodb",
            "dynamodb",
        ],
    ),
    (
        "ci",
        &[
            "github actions",
            "gitlab ci",
            "circleci",
            "jenkins",
            "buildkite",
        ],
    ),
    (
        "issue-tracker",
        &[
            "linear",
            "jira",
            "github issues",
            "asana",
            "trello",
            "youtrack",
        ],
    ),
];

pub(super) fn slot_of(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    let words: BTreeSet<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .collect();
    SLOTS.iter().find_map(|(slot, terms)| {
        terms
            .iter()
            .any(|t| {
                if t.contains(' ') || !t.is_ascii() {
                    lower.contains(t)
                } else {
                    words.contains(t)
                }
            })
            .then_some(*slot)
    })
}
