//! Which web pages may drive the WebSocket engine. A browser lets any page it shows open a
//! WebSocket to `ws://127.0.0.1:PORT` and says which page did in the `Origin` header: the
//! engine accepts the ATSA site, pages served from this machine (the loopback) and those
//! named with `--allow-origin`; a client that sends no `Origin` is not a browser page, and is
//! accepted (it could have connected without a browser anyway).

/// The ATSA site, whose Play page connects to engines.
pub const ATSA_SITE: &str = "https://taikyoku-shogi.github.io";

/// The origins the engine accepts beyond the ATSA site and the loopback.
#[derive(Clone, Debug, Default)]
pub struct Origins {
    extra: Vec<String>,
}

/// An `--allow-origin` that is not an origin.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not an origin: expected SCHEME://HOST or SCHEME://HOST:PORT, such as https://example.org"
)]
pub struct NotAnOrigin(pub String);

impl Origins {
    /// The default origins and `extra`, each checked.
    pub fn allowing(extra: &[String]) -> Result<Origins, NotAnOrigin> {
        let extra = extra
            .iter()
            .map(|o| normal(o).ok_or_else(|| NotAnOrigin(o.clone())));
        Ok(Origins {
            extra: extra.collect::<Result<_, _>>()?,
        })
    }

    /// Whether a client whose `Origin` header is `origin` (`None`: it sent none) may connect.
    pub fn allows(&self, origin: Option<&str>) -> bool {
        let Some(origin) = origin else { return true };
        let Some(origin) = normal(origin) else {
            return false;
        };
        origin == ATSA_SITE || loopback(&origin) || self.extra.contains(&origin)
    }
}

/// An origin as compared: lower case, without a trailing `/`; `None` if it is not one.
fn normal(origin: &str) -> Option<String> {
    let o = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    let (scheme, host) = o.split_once("://")?;
    let ok = !scheme.is_empty()
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        && !host.is_empty()
        && !host.contains(['/', '?', '#', '@', ' ']);
    ok.then_some(o)
}

/// Whether a (normal) origin is a page served from this machine: `http(s)://localhost`,
/// `127.0.0.1` or `[::1]`, on any port.
fn loopback(origin: &str) -> bool {
    let Some(rest) = (origin.strip_prefix("http://")).or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let port = ["localhost", "127.0.0.1", "[::1]"]
        .iter()
        .find_map(|h| rest.strip_prefix(h));
    port.is_some_and(|p| {
        p.is_empty()
            || p.strip_prefix(':').is_some_and(|n| {
                !n.is_empty() && n.len() <= 5 && n.bytes().all(|b| b.is_ascii_digit())
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_the_loopback_and_no_origin_are_allowed_and_other_pages_are_not() {
        let o = Origins::default();
        for ok in [
            None,
            Some("https://taikyoku-shogi.github.io"),
            Some("https://Taikyoku-Shogi.github.io/"),
            Some("http://localhost:8000"),
            Some("http://localhost"),
            Some("http://127.0.0.1:5173"),
            Some("http://[::1]:8080"),
            Some("https://localhost:443"),
        ] {
            assert!(o.allows(ok), "{ok:?}");
        }
        for refused in [
            "https://evil.example",
            "http://taikyoku-shogi.github.io",
            "https://taikyoku-shogi.github.io.evil.example",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example:80",
            "http://localhost:80@evil.example",
            "http://localhost:",
            "null",
            "",
            "file://",
        ] {
            assert!(!o.allows(Some(refused)), "{refused:?}");
        }
        let more = Origins::allowing(&["https://My.Example:8443/".into()]).unwrap();
        assert!(more.allows(Some("https://my.example:8443")));
        assert!(!more.allows(Some("https://my.example")));
        for bad in ["my.example", "https://", "https://a/b", "null"] {
            assert_eq!(
                Origins::allowing(&[bad.into()]).unwrap_err(),
                NotAnOrigin(bad.into())
            );
        }
    }
}
