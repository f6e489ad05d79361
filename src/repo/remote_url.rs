//! Git remote addresses (DESIGN §8): one spelling for every way of writing the same repository's
//! address, so that a project cloned by ssh on one machine and by https on another is one
//! project, and a team remote given twice is recognised; an address shown without its password;
//! an `http(s)` address without its credentials, to ask whether it answers anyone.

use std::path::Path;

use gix::bstr::ByteSlice;
use gix::url::Scheme;

/// The one spelling of a remote address: `host[:port]/path` for a network address (the host in
/// lower case; no user, password, default port, trailing `/` or `.git`), the absolute path for a
/// local one (relative to `base`, the repository that names it). `git@github.com:Alice/app.git`,
/// `ssh://git@github.com/Alice/app`, `https://GitHub.com/Alice/app.git/` are all
/// `github.com/Alice/app`. `None` when git could not use the address.
pub fn normalize(url: &str, base: &Path) -> Option<String> {
    let trimmed = url.trim();
    if trimmed.is_empty() || trimmed.contains(['\n', '\0']) {
        return None;
    }
    let parsed = gix::url::parse(trimmed.as_bytes().as_bstr()).ok()?;
    let path = parsed.path.to_string();
    let strip = |path: &str| -> String {
        let path = path.trim_end_matches('/');
        let path = path.strip_suffix("/.git").unwrap_or(path);
        let path = path.strip_suffix(".git").unwrap_or(path);
        path.trim_end_matches('/').to_string()
    };
    if parsed.scheme == Scheme::File {
        let absolute = crate::lexical::absolute_from(base, Path::new(&path));
        let normal = crate::lexical::normalize(&absolute)?;
        let stripped = strip(&normal.to_string_lossy());
        return (!stripped.is_empty()).then_some(stripped);
    }
    let host = parsed.host()?.to_ascii_lowercase();
    let default_port = match parsed.scheme {
        Scheme::Ssh => Some(22),
        Scheme::Http => Some(80),
        Scheme::Https => Some(443),
        Scheme::Git => Some(9418),
        _ => None,
    };
    let port = parsed
        .port
        .filter(|port| Some(*port) != default_port)
        .map(|port| format!(":{port}"))
        .unwrap_or_default();
    let path = strip(path.trim_start_matches('/'));
    let path = path.trim_start_matches("~/");
    if path.is_empty() {
        return None;
    }
    Some(format!("{host}{port}/{path}"))
}

/// `url` with a relative local path made absolute from `cwd` (where the person typed it): git
/// runs elsewhere, and the address is kept for later syncs.
pub fn absolute(url: &str, cwd: &Path) -> String {
    match gix::url::parse(url.trim().as_bytes().as_bstr()) {
        Ok(parsed) if parsed.scheme == Scheme::File && !url.starts_with("file:") => {
            let path = Path::new(url.trim());
            if path.is_absolute() {
                url.to_string()
            } else {
                crate::lexical::normalize(&crate::lexical::absolute_from(cwd, path))
                    .map_or_else(|| url.to_string(), |p| p.to_string_lossy().into_owned())
            }
        }
        _ => url.to_string(),
    }
}

/// `url` as it may be shown: the password of an address that holds one replaced by `***`.
pub fn shown(url: &str) -> String {
    match gix::url::parse(url.trim().as_bytes().as_bstr()) {
        Ok(mut parsed) if parsed.password().is_some() => {
            parsed.set_password(Some("***".into()));
            parsed.to_bstring().to_string()
        }
        _ => url.to_string(),
    }
}

/// An `http://` or `https://` address without the user and password it may hold; `None` for
/// any other address.
pub fn without_credentials(url: &str) -> Option<String> {
    let mut parsed = gix::url::parse(url.trim().as_bytes().as_bstr()).ok()?;
    if !matches!(parsed.scheme, Scheme::Http | Scheme::Https) {
        return None;
    }
    parsed.set_user(None);
    parsed.set_password(None);
    Some(parsed.to_bstring().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_an_address_is_one() {
        let base = Path::new("/work/app");
        for url in [
            "git@github.com:Alice/app.git",
            "git@GitHub.com:Alice/app",
            "ssh://git@github.com/Alice/app.git",
            "ssh://github.com:22/Alice/app/",
            "https://github.com/Alice/app.git",
            "https://alice:tok@GitHub.COM/Alice/app",
            "https://github.com:443/Alice/app.git/",
            "git://github.com/Alice/app",
        ] {
            assert_eq!(
                normalize(url, base).as_deref(),
                Some("github.com/Alice/app"),
                "{url}"
            );
        }
        // What tells two repositories apart stays: the path's case, a port, the host.
        for (url, identity) in [
            ("git@github.com:alice/app.git", "github.com/alice/app"),
            ("git@github.com:Bob/app.git", "github.com/Bob/app"),
            (
                "ssh://git@host.example:2222/team/memory.git",
                "host.example:2222/team/memory",
            ),
            (
                "https://gitlab.com/group/sub/app.git",
                "gitlab.com/group/sub/app",
            ),
            ("/srv/git/app.git", "/srv/git/app"),
            ("/srv/git/app/.git", "/srv/git/app"),
            ("file:///srv/git/app.git", "/srv/git/app"),
            ("../upstream.git", "/work/upstream"),
        ] {
            assert_eq!(normalize(url, base).as_deref(), Some(identity), "{url}");
        }
        for bad in ["", "  ", "https://", "a\nb"] {
            assert_eq!(normalize(bad, base), None, "{bad:?}");
        }
    }

    #[test]
    fn a_relative_path_is_made_absolute_where_it_was_typed() {
        let cwd = Path::new("/home/me/project");
        assert_eq!(absolute("../remote.git", cwd), "/home/me/remote.git");
        assert_eq!(absolute("/srv/remote.git", cwd), "/srv/remote.git");
        assert_eq!(absolute("git@host:me/m.git", cwd), "git@host:me/m.git");
        assert_eq!(absolute("https://host/me/m", cwd), "https://host/me/m");
    }

    #[test]
    fn credentials_are_never_shown_and_left_out_of_a_public_check() {
        assert_eq!(
            shown("https://alice:s3cret@example.com/me/memory.git"),
            "https://alice:***@example.com/me/memory.git"
        );
        assert_eq!(shown("git@host:me/memory.git"), "git@host:me/memory.git");
        assert_eq!(
            without_credentials("https://alice:s3cret@example.com/me/memory.git").as_deref(),
            Some("https://example.com/me/memory.git")
        );
        assert_eq!(without_credentials("git@host:me/memory.git"), None);
        assert_eq!(without_credentials("/srv/memory.git"), None);
    }
}
