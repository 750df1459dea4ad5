//! The dossier binary `dossier init` registers: the running binary's path, whether that path
//! is volatile (a temp dir, a cargo `target/`), and copying it somewhere stable
//! (`~/.local/bin/dossier`, or the plugin's `bin/dossier` with `plugin export --binary`).
//!
//! Not for: deciding whether to install (the user's consent is `init`'s), or registering the
//! installed path (`register`).

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use dossier_store::error::{DossierError, Result};
use dossier_store::files::FileOutcome;

/// The running binary's path. On Linux a binary replaced while running (a rebuild) reads
/// as `<path> (deleted)`; then the path itself, which holds the new build, is used.
pub fn running_binary() -> Result<PathBuf> {
    let exe = std::env::current_exe().map_err(|e| {
        DossierError::new(dossier_store::error::Code::Io, format!("cannot locate the running binary: {e}"))
    })?;
    if let Some(s) = exe.to_str()
        && let Some(stripped) = s.strip_suffix(" (deleted)")
        && Path::new(stripped).is_file()
    {
        return Ok(PathBuf::from(stripped));
    }
    Ok(exe)
}

/// Why `exe` is a volatile place to register (under the temp dir, or in a cargo `target/`).
pub fn volatile_reason(exe: &Path) -> Option<String> {
    let exe = fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    let temp = std::env::temp_dir();
    let temp = fs::canonicalize(&temp).unwrap_or(temp);
    if exe.starts_with(&temp) {
        return Some(format!("under the temporary directory {}", temp.display()));
    }
    exe.ancestors()
        .skip(1)
        .find(|d| d.join("CACHEDIR.TAG").is_file() && (d.ends_with("target") || d.join(".rustc_info.json").is_file()))
        .map(|d| format!("inside the cargo build directory {}", d.display()))
}

/// Copy `exe` to `target` atomically with mode 755 (unchanged when it is already there).
pub fn self_install(exe: &Path, target: &Path) -> Result<FileOutcome> {
    if same_contents(exe, target) {
        return Ok(FileOutcome::Unchanged);
    }
    let existed = target.exists();
    let dir = target.parent().expect("the install target has a parent");
    fs::create_dir_all(dir).map_err(|e| DossierError::io("create", dir, e))?;
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).map_err(|e| DossierError::io("create a temp file in", dir, e))?;
    let mut src = fs::File::open(exe).map_err(|e| DossierError::io("read", exe, e))?;
    std::io::copy(&mut src, tmp.as_file_mut()).map_err(|e| DossierError::io("write", tmp.path(), e))?;
    tmp.as_file().sync_all().map_err(|e| DossierError::io("sync", tmp.path(), e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(fs::Permissions::from_mode(0o755))
            .map_err(|e| DossierError::io("set permissions of", tmp.path(), e))?;
    }
    tmp.persist(target).map_err(|e| DossierError::io("replace", target, e.error))?;
    Ok(if existed { FileOutcome::Updated } else { FileOutcome::Created })
}

fn same_contents(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) else { return false };
    if ma.len() != mb.len() {
        return false;
    }
    let (Ok(mut fa), Ok(mut fb)) = (fs::File::open(a), fs::File::open(b)) else { return false };
    let (mut ba, mut bb) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let Ok(n) = fa.read(&mut ba) else { return false };
        if n == 0 {
            return true;
        }
        if fb.read_exact(&mut bb[..n]).is_err() || ba[..n] != bb[..n] {
            return false;
        }
    }
}

/// Whether `dir` is one of PATH's directories.
pub fn on_path(dir: &Path) -> bool {
    let Some(path) = std::env::var_os("PATH") else { return false };
    let canon = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = canon(dir);
    std::env::split_paths(&path).any(|d| canon(&d) == dir)
}
