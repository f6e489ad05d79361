//! The `builtin` extractor (DESIGN §6): offline and deterministic. It reads only what the person
//! typed (never tool output, sub-agents or summaries) and keeps statements that carry a cue:
//!
//! - feedback: instructions about how to work ("from now on…", "always/never…", "don't … use …
//!   instead", "I prefer…", "以后…", "不要再…");
//! - user: who the person is ("I'm a data engineer", "I've written Go for ten years", "我是…");
//! - reference: where things live outside the code (a URL or a channel, with a word saying what
//!   it is: dashboard, docs, tracker, runbook…);
//! - project: decisions with their reasons, deadlines and freezes, owners, outside constraints.
//!
//! Questions, hypotheticals, one-off task instructions ("for now", "this time"), statements about
//! the code itself (derivable from it), anything holding a secret, and what only the assistant
//! proposed are dropped. A proposal the person confirms ("Should I always…?" — "yes") is kept.
//! A correction ("actually…", "we switched to…") or a restatement updates the memory it is about
//! instead of adding a second one; "forget…" removes it. Relative dates become absolute.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;

use crate::extract::transcript::Turn;
use crate::extract::{Action, Draft, Existing};
use crate::memory::dates;
use crate::memory::statement::{
    DECISION, DERIVABLE, FEEDBACK, FEEDBACK_ANYWHERE, REASON, cjk_pairs, similarity, words,
};
use crate::memory::taxonomy::MemoryType;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("builtin pattern {pattern}: {e}"))
}

macro_rules! pattern {
    ($name:ident, $re:expr) => {
        static $name: LazyLock<Regex> = LazyLock::new(|| re($re));
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
pattern!(ME, r"(?i)\b(?:i|i'm|i've|i'd|my|me|myself)\b|我");

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

fn slot_of(text: &str) -> Option<&'static str> {
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

/// A memory known to this run: in the dir before it, or drafted by it.
#[derive(Debug, Clone)]
struct Known {
    name: String,
    memory_type: Option<MemoryType>,
    text: String,
    slot: Option<&'static str>,
}

/// A sentence of a prompt.
struct Sentence {
    text: String,
    /// The person asked for it to be remembered ("… Remember both.").
    asked: bool,
    /// Its line in the prompt: a statement's reasons are on its own line, a list's next item
    /// is not one.
    line: usize,
}

/// A statement worth keeping.
#[derive(Debug)]
struct Statement {
    memory_type: MemoryType,
    text: String,
    correction: bool,
}

/// Turn the person's prompts of a range into saves, updates and removals.
pub fn extract(turns: &[Turn], existing: &[Existing]) -> Vec<Action> {
    let mut known: Vec<Known> = existing
        .iter()
        .map(|m| {
            let text = format!("{} {}", m.description, m.body);
            Known {
                slot: slot_of(&text),
                name: m.name.clone(),
                memory_type: m.memory_type,
                text,
            }
        })
        .collect();
    let mut actions: Vec<Action> = Vec::new();
    for turn in turns {
        let date = turn
            .timestamp
            .map_or_else(|| chrono::Utc::now().date_naive(), |t| t.date_naive());
        let sentences = statements_of(turn);
        let mut used = vec![false; sentences.len()];
        // "That note is stale." makes what follows in the prompt a correction.
        let mut correcting = false;
        for (
            i,
            Sentence {
                text: sentence,
                asked,
                line,
            },
        ) in sentences.iter().enumerate()
        {
            // Nothing of a sentence that holds a secret is kept, not even a clause of it.
            if used[i] || crate::secrets::find(sentence).is_some() {
                continue;
            }
            let forget_rest = |text: &str| {
                FORGET
                    .find(text)
                    .map(|m| text[m.end()..].to_string())
                    .or_else(|| {
                        FORGET_ZH
                            .is_match(text)
                            .then(|| FORGET_ZH.replace(text, " ").into_owned())
                    })
            };
            // "Forget that note": what the prompt and the reply before it were about.
            let about = || {
                let mut about: Vec<&str> = sentences.iter().map(|s| s.text.as_str()).collect();
                about.push(&turn.previous_reply);
                about.join(" ")
            };
            if let Some(rest) = forget_rest(sentence) {
                forget(&mut known, &mut actions, &rest, &about());
                continue;
            }
            let scoped_line = sentences[..=i]
                .iter()
                .any(|s| s.line == *line && SCOPE_LEAD.is_match(&s.text));
            if scoped_line || in_scoped_list(&sentences, i) && FEEDBACK.is_match(sentence) {
                // "few things for today: - don't touch X": today's task, not a rule.
                continue;
            }
            // "scratch what I said about the board — we moved …": a correction of what follows.
            let (sentence, retracting) = match RETRACTION.find(sentence) {
                Some(m) if m.end() < sentence.len() => (&sentence[m.end()..], true),
                _ => (sentence.as_str(), false),
            };
            correcting |= retracting;
            let rules_item = in_rules_list(&sentences, i);
            let Some(mut statement) = rules_item
                .then(|| rule(sentence))
                .flatten()
                .or_else(|| classify(sentence, *asked).filter(|_| !rules_item))
                .or_else(|| {
                    // A statement mid-sentence: "…, so context: I mostly do infra, …".
                    clause_tails(sentence).find_map(|tail| classify(tail, *asked))
                })
            else {
                if let Some(rest) = clause_tails(sentence).find_map(forget_rest) {
                    forget(&mut known, &mut actions, &rest, &about());
                } else if CORRECTED_VALUE.is_match(sentence)
                    && let Some(target) = best_match(&known, sentence, None, 0.3)
                {
                    // "for credit-limit the bar is 0.88, not 0.85": a new value for a memory.
                    let statement = Statement {
                        memory_type: known[target].memory_type.unwrap_or(MemoryType::Project),
                        text: capitalise(sentence.trim_end_matches(['.', '。'])),
                        correction: true,
                    };
                    let text = dates::absolutize(&statement.text, date);
                    record(&mut known, &mut actions, statement, text, "", date);
                } else if CORRECTION.is_match(sentence) {
                    correcting = true;
                }
                continue;
            };
            statement.correction |= correcting;
            // "That note is stale: we moved triage to Linear. Bugs go to …": what follows a
            // correction corrects too.
            correcting |= statement.correction;
            used[i] = true;
            // "I'm the only tech writer here, so: we never write 'simply'": two memories.
            if let Some((at, other)) = clause_tails(sentence).find_map(|tail| {
                if statement.memory_type != MemoryType::User || BACK_REFERENCE.is_match(tail) {
                    return None;
                }
                let other = classify(tail, *asked)?;
                let at = statement.text.find(tail)?;
                let kept = matches!(
                    other.memory_type,
                    MemoryType::Feedback | MemoryType::Reference
                );
                (kept && at > 0).then_some((at, other))
            }) {
                statement.text = statement.text[..at]
                    .trim_end_matches([',', ':', ';', ' ', '—', '–', '-', '，', '：'])
                    .to_string();
                let text = dates::absolutize(&other.text, date);
                record(&mut known, &mut actions, other, text, "", date);
            }
            // "We picked it on purpose: …" is about the sentence before it.
            if ANAPHOR.is_match(sentence)
                || statement.memory_type == MemoryType::Feedback && POINTS_BACK.is_match(sentence)
            {
                let mut before = Vec::new();
                for j in (i.saturating_sub(2)..i).rev() {
                    let previous = &sentences[j].text;
                    if used[j] || !(is_context(previous) || REQUEST.is_match(previous)) {
                        break;
                    }
                    used[j] = true;
                    let previous = REQUEST.replace(previous, "");
                    let previous = LEAD_IN.replace(&previous, "");
                    before.insert(0, capitalise(previous.trim().trim_end_matches(['?', '？'])));
                }
                if !before.is_empty() {
                    statement.text = format!("{}. {}", before.join(". "), statement.text);
                }
            }
            // The sentences after a statement that explain it are its reason.
            let mut context = Vec::new();
            for j in i + 1..sentences.len() {
                let next = &sentences[j].text;
                let continues = CONTINUES.is_match(next)
                    || classify(next, sentences[j].asked).is_none_or(|other| {
                        other.memory_type == statement.memory_type
                            && (
                                // A second project fact right after the first explains it.
                                other.memory_type == MemoryType::Project && !DECISION.is_match(next)
                                // "…semicolons. please never add them": the same rule again.
                                || BACK_REFERENCE.is_match(next)
                            )
                    });
                // What the person says of themselves goes on about them, not the task.
                let about_them = statement.memory_type != MemoryType::User || ME.is_match(next);
                if context.len() == 2
                    || sentences[j].line != *line
                    || !is_context(next)
                    || !continues
                    || !about_them
                {
                    break;
                }
                used[j] = true;
                context.push(next.trim_end_matches(['.', '。']).to_string());
            }
            let text = dates::absolutize(&statement.text, date);
            let context = dates::absolutize(&context.join(". "), date);
            record(&mut known, &mut actions, statement, text, &context, date);
        }
    }
    // A memory saved and then removed in the same range never needs saving.
    let deleted: BTreeSet<String> = actions
        .iter()
        .filter_map(|a| match a {
            Action::Delete { name } => Some(name.clone()),
            _ => None,
        })
        .collect();
    let existed: BTreeSet<&str> = existing.iter().map(|m| m.name.as_str()).collect();
    actions.retain(|a| match a {
        Action::Delete { name } => existed.contains(name.as_str()),
        Action::Save(d) => !deleted.contains(&d.name) || existed.contains(d.name.as_str()),
    });
    actions
}

/// Add a statement: as an update of the memory it is about, or as a new memory.
fn record(
    known: &mut Vec<Known>,
    actions: &mut Vec<Action>,
    statement: Statement,
    text: String,
    context: &str,
    date: NaiveDate,
) {
    let slot = slot_of(&text);
    let same_slot = slot.and_then(|s| {
        known.iter().rposition(|k| {
            k.slot == Some(s)
                && k.memory_type
                    .is_none_or(|t| compatible(t, statement.memory_type))
        })
    });
    // A correction is matched with what explains it too ("we went trunk-based. Staging now
    // deploys tags" corrects "staging deploys from develop").
    // "the bar is 0.88, not 0.85": the memory keeps the current value only.
    let text = if statement.correction {
        STALE_VALUE.replace_all(&text, "").into_owned()
    } else {
        text
    };
    let (threshold, about) = if statement.correction {
        (0.3, format!("{text} {context}"))
    } else {
        (0.6, text.clone())
    };
    let target = same_slot
        .or_else(|| best_match(known, &text, Some(statement.memory_type), threshold))
        .or_else(|| best_match(known, &about, Some(statement.memory_type), threshold));
    let (name, memory_type) = match target {
        Some(i) => (
            known[i].name.clone(),
            known[i].memory_type.unwrap_or(statement.memory_type),
        ),
        None => (
            unique_name(known, &name_for(&text, slot, statement.memory_type)),
            statement.memory_type,
        ),
    };
    let draft = draft(&name, memory_type, &text, context, date);
    let entry = Known {
        name: name.clone(),
        memory_type: Some(memory_type),
        text: format!("{} {}", draft.description, draft.body),
        slot,
    };
    match target {
        Some(i) => known[i] = entry,
        None => known.push(entry),
    }
    actions.retain(|a| !matches!(a, Action::Save(d) if d.name == name));
    actions.push(Action::Save(draft));
}

/// A feedback rule about a tool and a project fact about the same tool are the same memory.
fn compatible(a: MemoryType, b: MemoryType) -> bool {
    a == b
        || matches!(
            (a, b),
            (MemoryType::Feedback, MemoryType::Project)
                | (MemoryType::Project, MemoryType::Feedback)
        )
}

/// Whether sentence `i` follows a "Rules whenever you touch it:" header in its prompt.
fn in_rules_list(sentences: &[Sentence], i: usize) -> bool {
    // The list runs on the lines right after the header, to the first blank line.
    let mut line = sentences[i].line;
    for s in sentences[..i].iter().rev() {
        if s.text.ends_with(':') || s.text.ends_with('：') {
            // One blank line may follow the header.
            return s.line.saturating_add(2) >= line && RULES_HEADER.is_match(&s.text);
        }
        if s.line.saturating_add(1) < line {
            return false;
        }
        line = s.line;
    }
    false
}

/// An item of a rules list, as a rule: unless it is a question, a one-off or holds nothing.
fn rule(sentence: &str) -> Option<Statement> {
    let first_clause = CLAUSE_START
        .find(sentence)
        .map_or(sentence, |m| &sentence[..m.start()]);
    let one_off = EPHEMERAL.is_match(first_clause) || SCOPE_LEAD.is_match(sentence);
    let empty = words(sentence).len() + cjk_pairs(sentence).len() < 2;
    (!one_off && !empty && !sentence.ends_with('?') && !TASK.is_match(sentence)).then(|| {
        Statement {
            memory_type: MemoryType::Feedback,
            text: capitalise(sentence.trim_end_matches(['.', '。'])),
            correction: false,
        }
    })
}

/// Whether sentence `i` is an item of a list headed "few things for today:".
fn in_scoped_list(sentences: &[Sentence], i: usize) -> bool {
    sentences[..i]
        .iter()
        .rev()
        .find(|s| s.text.ends_with(':') || s.text.ends_with('：'))
        .is_some_and(|s| SCOPED_HEADER.is_match(&s.text))
}

/// Remove the memory "forget …" is about, if one is.
fn forget(known: &mut Vec<Known>, actions: &mut Vec<Action>, rest: &str, previous_reply: &str) {
    if let Some(target) = forget_target(known, rest, previous_reply) {
        let name = known.remove(target).name;
        actions.retain(|a| !matches!(a, Action::Save(d) if d.name == name));
        actions.push(Action::Delete { name });
    }
}

/// What "forget …" is about: what follows it, or, for "forget that", what was just discussed.
fn forget_target(known: &[Known], rest: &str, previous_reply: &str) -> Option<usize> {
    best_match(known, rest, None, 0.1).or_else(|| {
        let anaphoric = words(rest).len() + cjk_pairs(rest).len() <= 6;
        if anaphoric {
            best_match(known, previous_reply, None, 0.3)
        } else {
            None
        }
    })
}

fn best_match(
    known: &[Known],
    text: &str,
    memory_type: Option<MemoryType>,
    threshold: f64,
) -> Option<usize> {
    let slot = slot_of(text);
    let mut best: Option<(usize, f64)> = None;
    for (i, k) in known.iter().enumerate() {
        if let (Some(want), Some(have)) = (memory_type, k.memory_type)
            && !compatible(want, have)
        {
            continue;
        }
        let mut score = similarity(text, &k.text);
        if slot.is_some() && slot == k.slot {
            score += 0.5;
        }
        if score >= threshold && best.is_none_or(|(_, s)| score > s) {
            best = Some((i, score));
        }
    }
    best.map(|(i, _)| i)
}

/// The sentences of a prompt that could be statements, plus a confirmed proposal; each with
/// whether the person asked for it to be remembered ("… Remember both.").
fn statements_of(turn: &Turn) -> Vec<Sentence> {
    // The person's own words are scanned before any rewriting: a line holding a secret is gone
    // before `u` can become `you` inside `curl -u user:pass`.
    let prompt = crate::secrets::blank_secret_lines(&turn.prompt);
    let text = normalize(&strip_quoted(&IDE_CONTEXT.replace_all(&prompt, "")));
    let mut out = Vec::new();
    let mut sentences: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .flat_map(|(line, text)| split_sentences(text).into_iter().map(move |s| (line, s)))
        .map(|(line, s)| match DISCOURSE.find(&s) {
            Some(m) if m.end() < s.len() => (line, s[m.end()..].to_string()),
            _ => (line, s),
        })
        .collect();
    if let Some((_, first)) = sentences.first()
        && AFFIRMATIVE.is_match(first)
        && first.chars().count() <= 80
        && let Some(proposal) = confirmed_proposal(&turn.previous_reply)
    {
        out.push(Sentence {
            text: proposal,
            asked: true,
            line: usize::MAX,
        });
    }
    let before = sentences.len();
    sentences.retain(|(_, s)| !REMEMBER_THESE.is_match(s));
    // "Remember these" after pasted code or a secret is about those, never saved.
    let pasted = turn.prompt.contains("```") || crate::secrets::find(&turn.prompt).is_some();
    let mut all_explicit = sentences.len() < before && !pasted;
    for (_, sentence) in &mut sentences {
        if let Some(m) = THINGS_TO_REMEMBER.find(sentence)
            && m.end() < sentence.len()
        {
            *sentence = sentence[m.end()..].to_string();
            all_explicit = true;
        }
    }
    out.extend(sentences.into_iter().map(|(line, text)| Sentence {
        text,
        asked: all_explicit,
        line,
    }));
    out
}

/// What the assistant's closing question proposed, as a statement ("Should I always use tabs?"
/// → "Always use tabs"); only proposals about how to work, not one-off task steps.
fn confirmed_proposal(reply: &str) -> Option<String> {
    let last = split_sentences(reply)
        .into_iter()
        .rev()
        .find(|s| s.ends_with('?') || s.ends_with('？'))?;
    let captures = PROPOSAL.captures(&last)?;
    let rest = captures
        .name("rest")
        .or(captures.name("zh"))?
        .as_str()
        .trim();
    if !FEEDBACK.is_match(rest) && !FEEDBACK_ANYWHERE.is_match(rest) {
        return None;
    }
    let mut chars = rest.chars();
    let first = chars.next()?;
    Some(first.to_uppercase().chain(chars).collect())
}

/// Chat spelling made standard, so that one pattern reads "dont", "don't" and "do not" alike.
fn normalize(text: &str) -> String {
    const SPELLINGS: &[(&str, &str)] = &[
        ("im", "I'm"),
        ("ive", "I've"),
        ("dont", "don't"),
        ("doesnt", "doesn't"),
        ("didnt", "didn't"),
        ("cant", "can't"),
        ("wont", "won't"),
        ("isnt", "isn't"),
        ("arent", "aren't"),
        ("wasnt", "wasn't"),
        ("shouldnt", "shouldn't"),
        ("thats", "that's"),
        ("theres", "there's"),
        ("theyre", "they're"),
        ("theyve", "they've"),
        ("theyll", "they'll"),
        ("youre", "you're"),
        ("youll", "you'll"),
        ("youd", "you'd"),
        ("u", "you"),
        ("ur", "your"),
        ("pls", "please"),
        ("plz", "please"),
        ("thx", "thanks"),
        ("tho", "though"),
        ("cuz", "because"),
        ("bc", "because"),
    ];
    WORD.replace_all(text, |c: &regex::Captures<'_>| {
        let word = &c[0];
        SPELLINGS
            .iter()
            .find(|(from, _)| word.eq_ignore_ascii_case(from))
            .map_or_else(|| word.to_string(), |(_, to)| (*to).to_string())
    })
    .into_owned()
}

/// Drop fenced code, block quotes and pasted logs: they are not the person's own statements.
fn strip_quoted(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced
            || trimmed.starts_with('>')
            || trimmed.starts_with("    ")
            || line.starts_with('\t')
        {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Split at sentence ends (keeping `?` so questions can be told apart), never inside a URL, a
/// code span, a number or an abbreviation like "e.g.".
fn split_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_code = false;
    let chars: Vec<char> = text.chars().collect();
    // A long aside in parentheses is a sentence of its own ("(for context, I came from a
    // bootcamp)"); a short one stays where it is.
    let mut aside_end = None;
    for (i, &c) in chars.iter().enumerate() {
        if c == '`' {
            in_code = !in_code;
        }
        let next = chars.get(i + 1).copied();
        let boundary = !in_code
            && match c {
                '\n' | '。' | '！' | '？' | '；' => true,
                '(' | '（' => {
                    aside_end = chars[i..]
                        .iter()
                        .position(|&p| p == ')' || p == '）')
                        .filter(|&len| {
                            len >= 25
                                && !chars[i..i + len].iter().collect::<String>().contains("://")
                        })
                        .map(|len| i + len);
                    aside_end.is_some()
                }
                ')' | '）' => aside_end == Some(i),
                '\u{1F300}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' => true,
                // `!!` in "don't use !!" is code, not an exclamation.
                '!' | '?' | ';' => {
                    let run_start = chars[..i]
                        .iter()
                        .rposition(|&p| p != c)
                        .map_or(0, |p| p + 1);
                    next.is_none_or(char::is_whitespace)
                        && run_start > 0
                        && chars[run_start - 1].is_alphanumeric()
                }
                '.' => {
                    next.is_none_or(char::is_whitespace)
                        && !current.ends_with("e.g")
                        && !current.ends_with("i.e")
                        && !current.ends_with("etc")
                        && !current.ends_with("vs")
                }
                _ => false,
            };
        if boundary {
            if matches!(c, '?' | '？' | '!' | '！') {
                current.push(c);
            }
            push_sentence(&mut out, &mut current);
        } else {
            current.push(c);
        }
    }
    push_sentence(&mut out, &mut current);
    out
}

fn push_sentence(out: &mut Vec<String>, current: &mut String) {
    let s = current
        .trim()
        .trim_start_matches(['-', '*', '•'])
        .trim()
        .to_string();
    if s.chars().count() >= 4 {
        out.push(s);
    }
    current.clear();
}

/// Decide whether a sentence is a memory, and of which type.
fn classify(sentence: &str, asked: bool) -> Option<Statement> {
    if crate::secrets::find(sentence).is_some() {
        return None;
    }
    let (explicit, body) = match EXPLICIT.find(sentence) {
        Some(m) if m.end() < sentence.len() => (true, sentence[m.end()..].trim()),
        _ => (asked, sentence.trim()),
    };
    // "Remember this", "stop it": nothing to remember by itself.
    if words(body).len() + cjk_pairs(body).len() < 1
        || BARE_OBJECT.is_match(body)
        || body.ends_with([':', '：'])
    {
        return None;
    }
    if body.chars().count() < 4 || body.chars().count() > 400 {
        return None;
    }
    let is_question = body.ends_with('?')
        || body.ends_with('？')
        || QUESTION_START.is_match(body) && !POLITE.is_match(body);
    if is_question || HYPOTHETICAL.is_match(body) {
        return None;
    }
    // "Our staging db gets wiped every sunday, so right now I click them by hand": the
    // one-off marker is about the second clause, not the fact.
    let first_clause = CLAUSE_START.find(body).map_or(body, |m| &body[..m.start()]);
    if EPHEMERAL.is_match(first_clause) && !FEEDBACK_ANYWHERE.is_match(body) {
        return None;
    }
    // A rule must not be scoped anywhere in it ("…, this view is throwaway").
    let scoped_rule = EPHEMERAL.is_match(body) && !FEEDBACK_ANYWHERE.is_match(body);
    let correction = CORRECTION.is_match(body);
    let body_clean = CORRECTION
        .find(body)
        .filter(|m| m.start() == 0)
        .map_or(body, |m| body[m.end()..].trim());
    let text = capitalise(body_clean.trim_end_matches(['.', '!', '。', '！']));
    let project_cue = PROJECT.is_match(body_clean)
        || REASON.is_match(body_clean) && (SUBJECT.is_match(body_clean) || correction);
    let has_date = DATE_PHRASE.is_match(body_clean) || DATE_ABSOLUTE.is_match(body_clean);
    let memory_type = if (USER.is_match(body_clean) || USER_BACKGROUND.is_match(body_clean))
        && !USER_EXCLUDE.is_match(body_clean)
    {
        MemoryType::User
    } else if is_reference(body_clean) {
        MemoryType::Reference
    } else if has_date && project_cue && !TASK.is_match(body_clean) && !PLAN.is_match(body_clean) {
        // "the deadline is the day after tomorrow; new features 一律 wait": a dated fact.
        MemoryType::Project
    } else if FEEDBACK.is_match(body_clean) || FEEDBACK_ANYWHERE.is_match(body_clean) {
        if scoped_rule {
            return None;
        }
        MemoryType::Feedback
    } else if DECISION.is_match(body_clean)
        || project_cue
            && (explicit || !DERIVABLE.is_match(body_clean) || DATE_ABSOLUTE.is_match(body_clean))
            && (explicit
                || !TASK.is_match(body_clean)
                    && !clause_tails(body_clean).any(|t| TASK.is_match(t)))
            && project_is_not_task_talk(body_clean)
    {
        MemoryType::Project
    } else if explicit && !DERIVABLE.is_match(body_clean) {
        // "Remember that …" with no other cue: a fact about the project, or a rule.
        if body_clean.split_whitespace().next().is_some_and(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "use"
                    | "run"
                    | "write"
                    | "keep"
                    | "put"
                    | "add"
                    | "check"
                    | "ask"
                    | "prefer"
                    | "avoid"
                    | "name"
                    | "call"
                    | "test"
                    | "commit"
                    | "push"
                    | "deploy"
            )
        }) {
            MemoryType::Feedback
        } else {
            MemoryType::Project
        }
    } else if correction && slot_of(body_clean).is_some() && !DERIVABLE.is_match(body_clean) {
        MemoryType::Project
    } else {
        return None;
    };
    if memory_type == MemoryType::Feedback
        && DERIVABLE.is_match(body_clean)
        && !explicit
        && !FEEDBACK_ANYWHERE.is_match(body_clean)
        && !body_clean.to_lowercase().starts_with("always")
        && !body_clean.to_lowercase().starts_with("never")
    {
        return None;
    }
    Some(Statement {
        memory_type,
        text,
        correction,
    })
}

/// The rest of a sentence from each clause on, up to the next dash or semicolon ("a, b — c"
/// → "b", "c"): an aside between dashes is read on its own, without the question after it.
fn clause_tails(sentence: &str) -> impl Iterator<Item = &str> {
    CLAUSE_START
        .find_iter(sentence)
        .map(move |m| {
            let rest = &sentence[m.end()..];
            MAJOR_SEPARATOR
                .find(rest)
                .map_or(rest, |end| &rest[..end.start()])
        })
        .filter(|tail| tail.chars().count() >= 8)
}

/// A sentence that explains the statement before it, rather than asking for work.
fn is_context(sentence: &str) -> bool {
    let n = sentence.chars().count();
    (8..=300).contains(&n)
        && !TASK.is_match(sentence)
        && !AFFIRMATIVE.is_match(sentence)
        && !sentence.ends_with('?')
        && !sentence.ends_with('？')
        && !QUESTION_START.is_match(sentence)
        && !LOG_OR_CODE.is_match(sentence)
        && !TASK_ANYWHERE.is_match(sentence)
        && crate::secrets::find(sentence).is_none()
}

/// "because the test fails" is debugging talk, not a decision.
fn project_is_not_task_talk(text: &str) -> bool {
    let lower = text.to_lowercase();
    ![
        "the test",
        "the build",
        "this error",
        "the error",
        "the bug",
        "it fails",
        "it crashes",
        "the output",
        "this function",
        "this file",
        "the stack",
    ]
    .iter()
    .any(|t| lower.contains(t))
}

fn is_reference(text: &str) -> bool {
    if TASK.is_match(text) || TASK_ANYWHERE.is_match(text) {
        return false;
    }
    let has_place = URL.is_match(text) || CHANNEL.is_match(text);
    let cue = REFERENCE_CUE.is_match(text);
    if has_place {
        return cue
            || REFERENCE_PLACE.is_match(text)
                && !text.to_lowercase().starts_with("open ")
                && !text.to_lowercase().starts_with("fetch ")
                && !text.to_lowercase().starts_with("read ")
                && !text.to_lowercase().starts_with("look at ")
                && !text.to_lowercase().starts_with("summari");
    }
    // "Bugs are tracked in Linear (project INGEST)": a named tool that is a place.
    cue && NAMED_PLACE.is_match(text) && !DERIVABLE.is_match(text)
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The memory's name: its slot, or its first significant words; a Chinese-only statement is
/// named by type and a hash of its text.
fn name_for(text: &str, slot: Option<&str>, memory_type: MemoryType) -> String {
    // Short, so that the index line keeps room for the description; never from a URL.
    let significant = words(&URL.replace_all(text, " "));
    let mut name = String::new();
    if let Some(slot) = slot {
        name.push_str(slot);
    } else {
        for word in significant.iter().take(4) {
            let word: String = word
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if word.is_empty() || name.len() + word.len() + 1 > 32 {
                continue;
            }
            if !name.is_empty() {
                name.push('-');
            }
            name.push_str(&word);
        }
    }
    let name = name.trim_matches('-').to_string();
    if name.len() < 3 || significant.len() < 2 && slot.is_none() {
        return format!(
            "{}-{:08x}",
            memory_type.as_str(),
            crate::extract::state::fnv1a(text.as_bytes()) as u32
        );
    }
    name
}

fn unique_name(known: &[Known], base: &str) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while known.iter().any(|k| k.name == name) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

/// The topic file for a statement (§3): feedback and project bodies say why and how to apply.
fn draft(name: &str, memory_type: MemoryType, text: &str, context: &str, date: NaiveDate) -> Draft {
    let mut description: String = text.chars().take(140).collect();
    if description.len() < text.len() {
        description.push('…');
    }
    let statement = match memory_type {
        MemoryType::User => third_person(text),
        _ => text.to_string(),
    };
    let day = date.format("%Y-%m-%d");
    let context = (!context.is_empty()).then(|| format!("{}.", capitalise(context)));
    let body = match memory_type {
        MemoryType::Feedback => {
            let why = reason(text)
                .or(context)
                .unwrap_or_else(|| format!("the user asked for this on {day}."));
            let how = WHEN
                .captures(text)
                .and_then(|c| c.name("when"))
                .map_or_else(
                    || "follow this in all future work on this project unless the user says otherwise.".to_string(),
                    |w| format!("{}: do this, in every session.", w.as_str().trim()),
                );
            format!("{statement}.\n\n**Why:** {why}\n**How to apply:** {how}\n")
        }
        MemoryType::Project => {
            let why = reason(text)
                .or(context)
                .unwrap_or_else(|| format!("stated by the user on {day}."));
            format!(
                "{statement}.\n\n**Why:** {why}\n**How to apply:** take this into account when planning, scheduling or suggesting work; check it is still current before relying on it.\n"
            )
        }
        MemoryType::User => match context {
            Some(more) => format!("{statement}. {more}\n\n(Said by the user on {day}.)\n"),
            None => format!("{statement}.\n\n(Said by the user on {day}.)\n"),
        },
        MemoryType::Reference => match context {
            Some(more) => format!("{statement}.\n\n{more}\n"),
            None => format!("{statement}.\n"),
        },
    };
    Draft {
        name: name.to_string(),
        memory_type,
        description: description.replace(['\n', '\r'], " "),
        title: None,
        body,
    }
}

fn reason(text: &str) -> Option<String> {
    let captures = WHY.captures(text)?;
    let why = captures
        .name("why")
        .or(captures.name("zh"))?
        .as_str()
        .trim();
    (why.chars().count() >= 6).then(|| {
        let mut why = capitalise(why);
        if !why.ends_with(['.', '。']) {
            why.push('.');
        }
        why
    })
}

/// "I'm a data engineer" → "The user is a data engineer".
fn third_person(text: &str) -> String {
    let replaced = if let Some(m) = FIRST_PERSON.find(text) {
        format!("The user is{}", &text[m.end()..])
    } else if let Some(m) = FIRST_PERSON_HAVE.find(text) {
        format!("The user has{}", &text[m.end()..])
    } else if let Some(m) = FIRST_PERSON_I.find(text) {
        format!("The user{}", &text[m.end()..])
    } else {
        return format!("The user said: {text}");
    };
    MY.replace_all(&replaced, "their").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(prompt: &str, previous: &str) -> Turn {
        Turn {
            previous_reply: previous.into(),
            prompt: prompt.into(),
            timestamp: chrono::DateTime::parse_from_rfc3339("2026-03-05T10:00:00Z")
                .ok()
                .map(|t| t.with_timezone(&chrono::Utc)),
            end: 0,
        }
    }

    fn saves(actions: &[Action]) -> Vec<(MemoryType, String)> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Save(d) => Some((d.memory_type, d.body.clone())),
                Action::Delete { .. } => None,
            })
            .collect()
    }

    #[test]
    fn the_four_types() {
        let turns = [
            turn(
                "From now on, use pnpm instead of npm because the lockfile is pnpm's.",
                "",
            ),
            turn("I'm a data engineer and new to Rust.", ""),
            turn(
                "The on-call dashboard is https://grafana.example.com/d/payments",
                "",
            ),
            turn(
                "We decided to drop Python 3.8 support because of the audit.",
                "",
            ),
        ];
        let got = saves(&extract(&turns, &[]));
        let types: Vec<_> = got.iter().map(|(t, _)| *t).collect();
        assert_eq!(
            types,
            [
                MemoryType::Feedback,
                MemoryType::User,
                MemoryType::Reference,
                MemoryType::Project
            ]
        );
        assert!(
            got[0].1.contains("**Why:** The lockfile is pnpm's."),
            "{}",
            got[0].1
        );
        assert!(got[0].1.contains("**How to apply:**"));
        assert!(got[1].1.starts_with("The user is a data engineer"));
    }

    #[test]
    fn questions_tasks_and_code_facts_are_not_memories() {
        let turns = [
            turn("Should we always use tabs?", ""),
            turn("Fix the failing test in src/parse.rs for now.", ""),
            turn("The parser lives in src/parse.rs and calls lexer.rs.", ""),
            turn("what if we never deployed on Fridays", ""),
            turn(
                "Remember my key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345",
                "",
            ),
        ];
        assert_eq!(extract(&turns, &[]), []);
    }

    #[test]
    fn corrections_update_and_forget_removes() {
        let turns = [
            turn("Remember that we use npm for this repo.", ""),
            turn("Actually, we switched to pnpm last month.", ""),
        ];
        let actions = extract(&turns, &[]);
        assert_eq!(actions.len(), 1, "{actions:?}");
        let Action::Save(d) = &actions[0] else {
            panic!("expected a save: {actions:?}")
        };
        assert!(
            d.body.contains("pnpm") && !d.body.contains(" npm "),
            "{}",
            d.body
        );
        let existing = [Existing {
            name: d.name.clone(),
            memory_type: Some(d.memory_type),
            description: d.description.clone(),
            body: d.body.clone(),
        }];
        let forget = extract(
            &[turn("Please forget what I said about pnpm.", "")],
            &existing,
        );
        assert_eq!(
            forget,
            [Action::Delete {
                name: d.name.clone()
            }]
        );
    }

    #[test]
    fn a_confirmed_proposal_is_kept_an_unconfirmed_one_is_not() {
        let asked = "Done. Should I always run the linter before committing?";
        assert_eq!(saves(&extract(&[turn("yes please", asked)], &[])).len(), 1);
        assert_eq!(extract(&[turn("no, just this once", asked)], &[]), []);
        assert_eq!(extract(&[turn("now fix the login page", asked)], &[]), []);
    }

    #[test]
    fn chinese_and_dates() {
        let got = saves(&extract(
            &[
                turn("以后提交前都要先跑 cargo fmt。", ""),
                turn("我们下周五冻结代码，因为要发版。", ""),
                turn("我是后端工程师，前端不太熟。", ""),
            ],
            &[],
        ));
        let types: Vec<_> = got.iter().map(|(t, _)| *t).collect();
        assert_eq!(
            types,
            [MemoryType::Feedback, MemoryType::Project, MemoryType::User]
        );
        assert!(got[1].1.contains("2026-03-13"), "{}", got[1].1);
    }
}
