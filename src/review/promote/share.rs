//! A team promotion shared for review (DESIGN §7, §8): its branch pushed to the team remote as
//! `memdir/promote/<name>`, and where to open a pull request for it: the address the remote
//! printed (GitHub and GitLab print one), else one made for GitHub or GitLab from the remote's
//! address, else the one an earlier push printed, else the git commands that review and merge
//! it.
//!
//! The branch is memdir's own and is rewritten when the memory is promoted again, so the push
//! replaces it, but only with a lease: if the remote's branch is not what this clone last saw
//! there (someone pushed to it), nothing is replaced.

use std::path::Path;

use super::PromoteError;
use crate::repo::TargetRepo;
use crate::repo::remote_url::normalize;
use crate::sync::transport::{self, ORIGIN, Pushed, Remote};

/// Where a pushed promotion is reviewed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Review {
    /// The page where a pull request is opened, when the remote has one.
    pub url: Option<String>,
    /// Otherwise, the commands that review and merge it in a team clone.
    pub command: Option<String>,
}

/// Push `branch` of the team clone `repo` to the team remote, for review before `target`;
/// `None` when the clone has no remote (a team dir made by hand). `recorded` is the page an
/// earlier push printed, for when this one prints none.
pub(super) fn push(
    repo: &TargetRepo,
    branch: &str,
    target: &str,
    recorded: Option<String>,
) -> Result<Option<Review>, PromoteError> {
    let dir = repo.workdir();
    let Some(origin) = crate::repo::project::remotes(dir)
        .into_iter()
        .find(|(name, _)| name == ORIGIN)
        .map(|(_, url)| url)
    else {
        return Ok(None);
    };
    let remote = Remote {
        git: ORIGIN.to_string(),
        label: "the team remote",
        again: "memdir promote",
    };
    let lease = repo.remote_branch_tip(ORIGIN, branch)?;
    let pushed = transport::push(
        dir,
        &remote,
        &format!("refs/heads/{branch}"),
        branch,
        Some(lease),
    )
    .map_err(|e| PromoteError::Push {
        branch: branch.to_string(),
        dir: dir.to_path_buf(),
        reason: e.to_string(),
    })?;
    let messages = match pushed {
        Pushed::Done(messages) => messages,
        Pushed::Rejected => {
            return Err(PromoteError::Push {
                branch: branch.to_string(),
                dir: dir.to_path_buf(),
                reason: "the team remote's branch holds commits this clone has not seen (someone pushed to it), so it was not replaced; memdir team sync fetches them".into(),
            });
        }
    };
    let url = printed_url(&messages)
        .or_else(|| made_url(&origin, dir, branch, target))
        .or(recorded);
    let command = url.is_none().then(|| {
        let team = crate::shell::quote(&dir.display().to_string());
        format!(
            "git -C {team} log -p {target}..{ORIGIN}/{branch}; git -C {team} merge {ORIGIN}/{branch} && memdir team sync"
        )
    });
    Ok(Some(Review { url, command }))
}

/// The first web address in what the remote printed (`remote: Create a pull request … by
/// visiting: https://…`).
fn printed_url(messages: &[String]) -> Option<String> {
    messages.iter().find_map(|line| {
        line.split_whitespace()
            .find(|word| word.starts_with("https://") || word.starts_with("http://"))
            .map(str::to_string)
    })
}

/// The page that opens a pull request (GitHub) or merge request (GitLab) of `branch` into
/// `target`, from the remote's address; `None` for any other host.
fn made_url(origin: &str, dir: &Path, branch: &str, target: &str) -> Option<String> {
    let identity = normalize(origin, dir)?;
    let (host, path) = identity.split_once('/')?;
    if host == "github.com" {
        Some(format!(
            "https://github.com/{path}/compare/{target}...{branch}?expand=1"
        ))
    } else if host == "gitlab.com" || host.starts_with("gitlab.") {
        Some(format!(
            "https://{host}/{path}/-/merge_requests/new?merge_request%5Bsource_branch%5D={branch}&merge_request%5Btarget_branch%5D={target}"
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_review_page_is_the_one_the_remote_printed_else_made_for_known_hosts() {
        let printed = [
            "".to_string(),
            "Create a pull request for 'memdir/promote/lint' on GitHub by visiting:".into(),
            "https://github.com/acme/memory/pull/new/memdir/promote/lint".into(),
        ];
        assert_eq!(
            printed_url(&printed).as_deref(),
            Some("https://github.com/acme/memory/pull/new/memdir/promote/lint")
        );
        let dir = Path::new("/work");
        assert_eq!(
            made_url(
                "git@github.com:acme/memory.git",
                dir,
                "memdir/promote/lint",
                "main"
            )
            .as_deref(),
            Some("https://github.com/acme/memory/compare/main...memdir/promote/lint?expand=1")
        );
        assert_eq!(
            made_url("https://gitlab.com/acme/team/memory.git", dir, "b", "main").as_deref(),
            Some(
                "https://gitlab.com/acme/team/memory/-/merge_requests/new?merge_request%5Bsource_branch%5D=b&merge_request%5Btarget_branch%5D=main"
            )
        );
        assert_eq!(made_url("/srv/memory.git", dir, "b", "main"), None);
        assert_eq!(
            made_url("git@example.com:memory.git", dir, "b", "main"),
            None
        );
    }
}
