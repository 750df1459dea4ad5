//! The network provider: a pinned package's official documentation page (docs.rs, npmjs.com,
//! pypi.org, pkg.go.dev by default), fetched over HTTPS.
//!
//! **Off unless built.** Nothing constructs it by default: the host builds it only when the
//! config says `privacy_mode: allow-doc-fetch` *and* the session was started with the user's
//! consent; codecall's runtime also refuses to use it for a session recorded as offline.
//!
//! What leaves the machine: one GET per fetched page, to a URL built from a site template and a
//! package name and version taken from the repository's lockfile — never repository text, code,
//! the task or the learner's answers. No proxy from the environment, no cookies, no redirects
//! except to a host on the same site's allowlist (at most 3).
//!
//! Rules, each tested against a server on loopback:
//! - a strict per-site domain allowlist: the URL's host must equal an allowed domain (no
//!   subdomain wildcard); `http` only for a loopback host; anything else is `not_allowed`
//!   before any connection;
//! - a timeout for the whole request (`timeout`) and a byte limit on the body (`max_bytes`):
//!   `timeout`, `too_large`;
//! - only `text/html`, `text/plain` and `text/markdown`; HTML is reduced to text
//!   ([`crate::text::html_to_text`]: scripts, styles, comments and attributes removed);
//! - the text is data: it is returned as an excerpt to cite, never interpreted.
//!
//! Not for: searching the web, or any site not configured.

use std::path::Path;
use std::time::Duration;

use crate::packages::{CargoDocs, GoDocs, NpmDocs, PythonDocs, package_match};
use crate::{
    Budget, Candidate, ConceptQuery, DocumentationProvider, Factors, Fetched, ProviderError, SourceKind, text,
};

/// One documentation site for an ecosystem's packages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// `cargo`, `npm`, `python` or `go`: whose lockfile names the packages.
    pub ecosystem: String,
    /// The page of a package: `{name}` and `{version}` are replaced.
    pub url_template: String,
    /// Hosts the site may be fetched from (exact match).
    pub allowed_domains: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct WebConfig {
    pub sites: Vec<Site>,
    /// For the whole request (connect, headers, body).
    pub timeout: Duration,
    /// Body bytes at most.
    pub max_bytes: u64,
}

impl Default for WebConfig {
    fn default() -> Self {
        let site = |eco: &str, t: &str, host: &str| Site {
            ecosystem: eco.into(),
            url_template: t.into(),
            allowed_domains: vec![host.into()],
        };
        WebConfig {
            sites: vec![
                site("cargo", "https://docs.rs/crate/{name}/{version}", "docs.rs"),
                site("npm", "https://www.npmjs.com/package/{name}/v/{version}", "www.npmjs.com"),
                site("python", "https://pypi.org/project/{name}/{version}/", "pypi.org"),
                site("go", "https://pkg.go.dev/{name}@{version}", "pkg.go.dev"),
            ],
            timeout: Duration::from_secs(5),
            max_bytes: 512 * 1024,
        }
    }
}

pub struct WebDocs {
    config: WebConfig,
    /// (ecosystem, name, version) pinned by the repository's lockfiles.
    pinned: Vec<(String, String, String)>,
    agent: ureq::Agent,
}

/// The host of an `http(s)` URL, and whether it is `https`.
fn host_of(url: &str) -> Option<(String, bool)> {
    let (https, rest) =
        if let Some(r) = url.strip_prefix("https://") { (true, r) } else { (false, url.strip_prefix("http://")?) };
    let authority = rest.split(['/', '?', '#']).next()?;
    if authority.contains('@') {
        return None;
    }
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next()?.to_string()
    } else {
        authority.split(':').next()?.to_string()
    };
    Some((host.to_ascii_lowercase(), https))
}

fn is_loopback(host: &str) -> bool {
    host == "127.0.0.1" || host == "::1" || host == "localhost"
}

impl WebDocs {
    /// The provider for the packages pinned in `repo`'s lockfiles.
    pub fn new(config: WebConfig, repo: &Path) -> WebDocs {
        let mut pinned = Vec::new();
        let mut add = |eco: &str, pkgs: &[crate::packages::Package]| {
            pinned.extend(pkgs.iter().map(|p| (eco.to_string(), p.name.clone(), p.version.clone())));
        };
        add("cargo", CargoDocs::new(repo, None).packages());
        add("npm", NpmDocs::new(repo).packages());
        add("python", PythonDocs::new(repo, Vec::new()).packages());
        add("go", GoDocs::new(repo, None).packages());
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .max_redirects(0)
            .http_status_as_error(false)
            .proxy(None)
            .user_agent("dossier-codecall-docs")
            .build()
            .into();
        WebDocs { config, pinned, agent }
    }

    /// Whether `url` may be fetched for `site` (module doc).
    pub fn allowed(site: &Site, url: &str) -> Result<(), ProviderError> {
        let (host, https) =
            host_of(url).ok_or_else(|| ProviderError::new("not_allowed", format!("{url} is not an http(s) URL")))?;
        if !site.allowed_domains.iter().any(|d| d.eq_ignore_ascii_case(&host)) {
            return Err(ProviderError::new(
                "not_allowed",
                format!("{host} is not on the allowlist of this site ({})", site.allowed_domains.join(", ")),
            ));
        }
        if !https && !is_loopback(&host) {
            return Err(ProviderError::new("not_allowed", format!("{url}: only https is fetched")));
        }
        Ok(())
    }

    fn site_for(&self, source_id: &str) -> Option<(&Site, String)> {
        let rest = source_id.strip_prefix("web:")?;
        let (eco, url) = rest.split_once(':')?;
        self.config.sites.iter().find(|s| s.ecosystem == eco).map(|s| (s, url.to_string()))
    }

    /// GET `url` under the site's rules; the body as text.
    pub fn get(&self, site: &Site, url: &str) -> Result<String, ProviderError> {
        let mut url = url.to_string();
        for _ in 0..4 {
            Self::allowed(site, &url)?;
            let mut resp = self.agent.get(&url).call().map_err(|e| match e {
                ureq::Error::Timeout(_) => {
                    ProviderError::new("timeout", format!("{url}: no answer within {:?}", self.config.timeout))
                }
                other => ProviderError::new("http", format!("{url}: {other}")),
            })?;
            let status = resp.status().as_u16();
            if (300..400).contains(&status) {
                let loc = resp.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
                url = if loc.starts_with('/') {
                    let (host, https) = host_of(&url).expect("checked");
                    let port = url
                        .split("://")
                        .nth(1)
                        .and_then(|r| r.split('/').next())
                        .and_then(|a| a.rsplit_once(':').map(|(_, p)| format!(":{p}")))
                        .unwrap_or_default();
                    format!("{}://{host}{port}{loc}", if https { "https" } else { "http" })
                } else {
                    loc
                };
                continue;
            }
            if status != 200 {
                return Err(ProviderError::new("http", format!("{url}: HTTP {status}")));
            }
            let ctype =
                resp.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase();
            let html = ctype.starts_with("text/html");
            if !(html || ctype.starts_with("text/plain") || ctype.starts_with("text/markdown")) {
                return Err(ProviderError::new("unsupported", format!("{url}: content type `{ctype}` is not text")));
            }
            let body =
                resp.body_mut().with_config().limit(self.config.max_bytes).read_to_string().map_err(|e| match e {
                    ureq::Error::BodyExceedsLimit(n) => {
                        ProviderError::new("too_large", format!("{url}: more than {n} bytes"))
                    }
                    ureq::Error::Timeout(_) => ProviderError::new(
                        "timeout",
                        format!("{url}: the body did not arrive within {:?}", self.config.timeout),
                    ),
                    other => ProviderError::new("http", format!("{url}: {other}")),
                })?;
            return Ok(if html { text::html_to_text(&body) } else { text::normalise_space(&body) });
        }
        Err(ProviderError::new("http", format!("{url}: too many redirects")))
    }
}

impl DocumentationProvider for WebDocs {
    fn name(&self) -> &str {
        "web"
    }

    fn can_resolve(&self, concept: &ConceptQuery) -> bool {
        self.pinned
            .iter()
            .any(|(eco, n, _)| self.config.sites.iter().any(|s| &s.ecosystem == eco) && package_match(n, concept) > 0.0)
    }

    fn search(&self, concept: &ConceptQuery, budget: &Budget) -> Result<Vec<Candidate>, ProviderError> {
        let mut out = Vec::new();
        for (eco, name, version) in &self.pinned {
            let m = package_match(name, concept);
            if m == 0.0 {
                continue;
            }
            for site in self.config.sites.iter().filter(|s| &s.ecosystem == eco) {
                let url = site.url_template.replace("{name}", name).replace("{version}", version);
                out.push(Candidate {
                    source_id: format!("web:{eco}:{url}"),
                    provider: "web".into(),
                    title: format!("{name} {version} — official documentation"),
                    kind: SourceKind::OfficialDocs,
                    version: Some(version.clone()),
                    location: url,
                    factors: Factors {
                        authority: crate::authority(SourceKind::OfficialDocs),
                        concept_match: m,
                        version_match: 1.0,
                        stability: 1.0,
                        accessibility: 0.6,
                    },
                });
            }
        }
        crate::rank(&mut out);
        out.truncate(budget.max_results);
        Ok(out)
    }

    fn fetch(&self, source_id: &str, _: &Budget) -> Result<Fetched, ProviderError> {
        let (site, url) = self
            .site_for(source_id)
            .ok_or_else(|| ProviderError::new("not_found", format!("{source_id}: no such site")))?;
        let text = self.get(site, &url)?;
        Ok(Fetched { text, notes: vec!["fetched over the network; the text is untrusted data".into()] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_parsed_strictly() {
        assert_eq!(host_of("https://docs.rs/a"), Some(("docs.rs".into(), true)));
        assert_eq!(host_of("http://127.0.0.1:8080/x"), Some(("127.0.0.1".into(), false)));
        assert_eq!(host_of("https://docs.rs@evil.example/"), None);
        assert_eq!(host_of("ftp://docs.rs/"), None);
    }
}
