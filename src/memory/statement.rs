//! What a statement says, as memory-level knowledge that extraction and review both need
//! (DESIGN §3, §6, §7): its significant words and a fingerprint to tell two statements about the
//! same thing (duplicates, updates), whether it only describes the code (derivable, not worth
//! remembering), and the cues that tell a rule, a decision or a reason.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("statement pattern {pattern}: {e}"))
}

macro_rules! pattern {
    ($name:ident, $re:expr) => {
        pub(crate) static $name: LazyLock<Regex> = LazyLock::new(|| re($re));
    };
}

pattern!(
    CODE_STRUCTURE,
    r"(?i)\b(?:is defined in|lives in|live in|is implemented in|are implemented in|calls|imports|the architecture|is structured|consists of|is made of|the entry point is|is the entry point|wraps|delegates to|is generated from|is built from)\b|位于|定义在|调用了"
);
pattern!(
    DERIVABLE,
    r"(?i)(?:^|\s|`)(?:[a-zA-Z0-9_.\-]+/)+[a-zA-Z0-9_.\-]+\.[a-z]{1,5}\b|\b[a-zA-Z0-9_\-]+\.(?:rs|ts|tsx|js|jsx|py|go|rb|java|kt|ex|exs|c|h|cpp|toml|yaml|yml|json|lock)\b|\b(?:is defined in|lives in src|is implemented in|calls|imports|the architecture|the module|the function|the class|the struct|the test(?:s)? (?:is|are|fail)|the bug is|the error (?:is|was)|stack trace|the build (?:is|fails|failed)|git log|last commit|the diff)\b"
);
pattern!(
    NORMATIVE,
    r"(?i)\b(?:must|should|never|always|don't|do not|only|use|keep|put|prefer|go through|goes through|has to|have to|need to)\b|必须|不要|别|只能|一律"
);
pattern!(
    FEEDBACK,
    r"(?i)^(?:(?:and|also|so|but|oh|ok(?:ay)?|please|just|no|nope|hey|dude|man|ugh|yeah|hmm|hm|well|one thing(?: though)?)[,!.]*\s+)*(?:always|never|(?:we|you) (?:don't|never|always|do not) (?:use|put|add|write|run|commit|push|touch|do|call|mock|merge|deploy|ship|include|allow)\b|no (?:new |more |extra )?[a-zA-Z0-9_-]+ (?:without|unless|of|in (?:the |our )?(?:code|repo|tests?|commits?|prs?))\b|don't|do not|stop [a-zA-Z0-9_]+ing\b|avoid|quit|prefer|make sure (?:to|you)|be sure to|remember to|don't forget to|from now on|going forward|moving forward|in (?:the )?future|whenever|every time|each time|no more|use\s+\S+(?:\s+\S+)?\s+(?:instead|rather than|not|over)\b|you (?:should|must|need to) (?:always|never)|you should|i (?:prefer|like) |i (?:want|need) you to (?:always|never|stop)|i'd (?:prefer|rather|like you)|(?:it )?would be (?:great|nice|better|good|awesome|helpful) if you|it'd be (?:great|nice|better|good) if you|i'd appreciate (?:it )?if you|can you (?:stop|always|never|please stop)|your (?:answers|replies|responses|explanations|messages|comments|commit messages|summaries|prs?) are (?:[a-zA-Z0-9_]+ )?(?:too|so|really|way|a bit)|just (?:give|show|tell) me|keep (?:your )?(?:answers|replies|it) (?:short|brief)|stick to (?:that|this|it|the)\b|(?:all|every|any) [a-z0-9 /-]{2,40} (?:in|across|for) (?:this|our|the) (?:app|repo|codebase|project|docs|team|site|api|service)\b|i don't (?:like|want) (?:you|it when)|i hate it when|let's (?:always|never)|we (?:always|never) )|^(?:以后|今后|从现在开始|从现在起|往后|总是|始终|一律|永远不要|永远别|不要再|别再|不许|务必|每次|一定要|请用|请使用|请不要|不要用|别用|我喜欢|我更喜欢|我希望你|我不喜欢|提交前|回答时)"
);
pattern!(
    FEEDBACK_ANYWHERE,
    r"(?i)\b(?:from now on|going forward|in (?:the )?future|do (?:that|this|it) always|always do (?:that|this|it)|keep doing (?:that|this|it)|love (?:that|it when|how) you|stick to (?:that|this|it) (?:pattern|rule|format|style|for every|everywhere)|not just (?:on|in|for) this|for every (?:branch|commit|pr|test|file|page|endpoint)|(?:reply|answer|respond|talk|write) to me in|(?:reply|answer|respond) in (?:english|chinese|german|french|spanish|japanese))\b|(?:^|[，,；;：:]\s*)(?:以后|今后)|从现在开始|从现在起|一律|别用|不要用|禁止|永远不要|回复(?:我)?(?:的时候|时)?.{0,4}用"
);
pattern!(
    DECISION,
    r"(?i)\bwe(?:'ve| have)? (?:decided|chose|agreed|went with|went \S+-based|went back to|picked|settled on|standardi[sz]ed on|moved|switched|migrated)\b|我们(?:决定|选|定了|选择|统一|约定|改用|换成)"
);
pattern!(
    REASON,
    r"(?i)\b(?:because|since|so that|in order to|due to)\b|因为|由于"
);

#[rustfmt::skip] // a long list of short words, kept compact
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "to", "of", "in", "on", "for", "with", "at", "by",
    "from", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that", "these",
    "those", "we", "our", "us", "you", "your", "i", "me", "my", "im", "ive", "id", "please",
    "always", "never", "dont", "do", "not", "no", "use", "using", "remember", "from", "now", "on",
    "so", "also", "just", "should", "must", "will", "can", "all", "any", "every", "when", "before",
    "after", "then", "than", "there", "here", "they", "them", "he", "she", "has", "have", "had",
    "as", "if", "into", "about", "actually", "instead", "okay", "ok", "yes", "anymore", "which",
    "what", "future", "forward", "going", "make", "sure", "thing", "things", "like", "prefer",
    "want", "need", "new", "forget", "note", "keep", "mind", "that's", "it's", "let's", "lets",
    "via", "over", "rather", "each", "time", "switched", "moved", "changed", "migrated", "decided",
    "because", "since", "due", "even", "though", "although", "while", "until", "under",
    "anything", "something", "everything", "d", "s", "t", "ll", "re", "ve",
];

/// Whether a lower-case word carries content (is no stop word).
pub(crate) fn is_significant(word: &str) -> bool {
    !STOPWORDS.contains(&word)
}

/// The significant words of a text, for naming and for finding related memories.
pub(crate) fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '\''))
        .map(|w| w.trim_matches(|c| c == '-' || c == '\'').replace('\'', ""))
        .filter(|w| w.len() > 1 && is_significant(w))
        .collect()
}

/// Chinese text as character pairs, so that related Chinese statements can be compared.
pub(crate) fn cjk_pairs(text: &str) -> BTreeSet<String> {
    let chars: Vec<char> = text
        .chars()
        .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
        .collect();
    chars.windows(2).map(|w| w.iter().collect()).collect()
}

/// How much two statements are about the same thing, 0 to 1.
pub(crate) fn similarity(a: &str, b: &str) -> f64 {
    Fingerprint::of(a).similarity(&Fingerprint::of(b))
}

/// What [`similarity`] compares, computed once per text when a text is compared many times.
pub(crate) struct Fingerprint {
    words: BTreeSet<String>,
    pairs: BTreeSet<String>,
}

impl Fingerprint {
    pub(crate) fn of(text: &str) -> Fingerprint {
        Fingerprint {
            words: words(text).into_iter().collect(),
            pairs: cjk_pairs(text),
        }
    }

    /// How much the two texts are about the same thing, 0 to 1.
    pub(crate) fn similarity(&self, other: &Fingerprint) -> f64 {
        let total =
            (self.words.len() + self.pairs.len()).min(other.words.len() + other.pairs.len()) as f64;
        if total == 0.0 {
            return 0.0;
        }
        (self.shared_with(other) / total).min(1.0)
    }

    /// What the two texts say in common, weighed: a shared name ("#ops-pager", "credit-limit",
    /// "acme-stg") 3, a shared word or Chinese pair 1, a near word ("npm" and "pnpm", "test" and
    /// "tests") a half.
    pub(crate) fn shared_with(&self, other: &Fingerprint) -> f64 {
        let (wa, wb) = (&self.words, &other.words);
        let mut shared = 0.0;
        for w in wa.intersection(wb) {
            shared += if is_identifier(w) { 3.0 } else { 1.0 };
        }
        for x in wa.difference(wb).filter(|x| x.len() >= 3) {
            if wb
                .iter()
                .any(|y| y.len() >= 3 && (y.contains(x.as_str()) || x.contains(y.as_str())))
            {
                shared += 0.5;
            }
        }
        shared + self.pairs.intersection(&other.pairs).count() as f64
    }
}

/// A word that names something: it holds a '-', '_' or a digit.
fn is_identifier(word: &str) -> bool {
    word.len() >= 4
        && word
            .chars()
            .any(|c| c == '-' || c == '_' || c.is_ascii_digit())
}

/// Whether a statement describes the code itself (paths, modules, what calls what): derivable
/// from the code or its history, so not worth remembering.
pub(crate) fn is_derivable(text: &str) -> bool {
    // One path named in a rule is where the rule applies; the code's own structure, or a list
    // of its files, is what the code already says.
    let structure = CODE_STRUCTURE.is_match(text) || DERIVABLE.find_iter(text).count() >= 2;
    structure
        && !NORMATIVE.is_match(text)
        && !FEEDBACK.is_match(text)
        && !FEEDBACK_ANYWHERE.is_match(text)
        && !DECISION.is_match(text)
        && !REASON.is_match(text)
}

/// The content words of `old` that `new` no longer says, when they are most of them (over
/// half, of at least three): replacing `old` by `new` would then lose a fact rather than
/// correct or extend it (DESIGN §6: "an update never destroys a different fact"). A word `new`
/// says in another form ("runbook" for "runbooks", "pnpm" for "npm") is not dropped; Chinese is
/// compared by character pairs.
pub(crate) fn dropped_words(old: &str, new: &str) -> Option<Vec<String>> {
    let kept: BTreeSet<String> = words(new).into_iter().collect();
    let mut said: Vec<String> = Vec::new();
    for word in words(old) {
        if !said.contains(&word) {
            said.push(word);
        }
    }
    let near = |word: &str| {
        kept.iter().any(|k| {
            k == word
                || word.len() >= 3
                    && k.len() >= 3
                    && (k.contains(word) || word.contains(k.as_str()))
        })
    };
    let mut dropped: Vec<String> = said.iter().filter(|w| !near(w)).cloned().collect();
    let (old_pairs, new_pairs) = (cjk_pairs(old), cjk_pairs(new));
    let dropped_pairs = old_pairs.difference(&new_pairs).count();
    let total = said.len() + old_pairs.len();
    let lost = dropped.len() + dropped_pairs;
    if total < 3 || lost * 2 <= total {
        return None;
    }
    dropped.extend(old_pairs.difference(&new_pairs).cloned());
    Some(dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_update_that_says_something_else_drops_the_old_fact() {
        let runbook = "On-call runbook lives in Notion: Eng/Runbooks. The on-call runbook lives in Notion under Eng/Runbooks.";
        let dropped = dropped_words(runbook, "The on-call rota is in PagerDuty.").expect("dropped");
        assert!(dropped.contains(&"notion".to_string()), "{dropped:?}");
        // Corrected or extended, the fact stays.
        assert_eq!(
            dropped_words(
                runbook,
                "The on-call runbook moved from Notion Eng/Runbooks to Confluence."
            ),
            None
        );
        assert_eq!(
            dropped_words(
                runbook,
                "On-call runbook lives in Notion: Eng/Runbooks; the rota is in PagerDuty."
            ),
            None
        );
        assert_eq!(
            dropped_words("Use npm.", "Use pnpm."),
            None,
            "too short to judge"
        );
        assert!(dropped_words("发版前冻结代码三天", "周五团建去爬山").is_some());
        assert_eq!(
            dropped_words("发版前冻结代码三天", "发版前冻结代码五天"),
            None
        );
    }
}
