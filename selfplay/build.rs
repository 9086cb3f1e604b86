//! Records the git commit the binary is built from (and whether the tree had changes) for
//! `run.json`, so every result says which code produced it.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    for path in ["../.git/HEAD", "../.git/index", "../.git/refs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(commit) = git(&["rev-parse", "HEAD"]) {
        let modified =
            git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
        let suffix = if modified { "+modified" } else { "" };
        println!("cargo:rustc-env=VARIANTLAB_GIT_COMMIT={commit}{suffix}");
    }
}
