//! `seozoom completions SHELL` and `seozoom man`, made from the command tree
//! of the operation table, and each action's help ending with an example. The
//! bash script is run through bash itself.

use crate::support;

use std::process::Command;

use seozoom::operations::OPERATIONS;
use support::{run, run_with_env};

#[test]
fn every_shell_gets_a_script_that_names_every_action() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let script = run(["completions", shell]);
        script.expect_code(0);
        for op in OPERATIONS {
            assert!(script.stdout.contains(op.action), "{shell}: {}", op.label());
        }
    }
    run(["completions", "tcsh"]).expect_code(2);
}

#[test]
fn the_fish_script() {
    let script = run(["completions", "fish"]);
    script.expect_code(0);
    insta::assert_snapshot!(script.stdout);
}

/// The bash script, sourced in bash: `complete -p seozoom` shows it, and the
/// completion of `seozoom domains k` offers `keywords`. Without bash the test
/// is skipped, except in CI (`CI=true`), where it fails.
#[test]
fn bash_completes_actions_with_the_generated_script() {
    if Command::new("bash").arg("--version").output().is_err() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "bash is needed to test the completion script"
        );
        eprintln!("skipped: no bash");
        return;
    }
    let script = run(["completions", "bash"]);
    script.expect_code(0);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("completions-bash");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("seozoom.bash");
    std::fs::write(&path, &script.stdout).unwrap();
    let probe = r#"
        source "$1"
        complete -p seozoom || exit 3
        function=$(complete -p seozoom | sed -n 's/.*-F \([^ ]*\).*/\1/p')
        COMP_WORDS=(seozoom domains k)
        COMP_CWORD=2
        COMP_LINE="seozoom domains k"
        COMP_POINT=${#COMP_LINE}
        "$function" seozoom k domains
        printf 'offered: %s\n' "${COMPREPLY[@]}"
    "#;
    let output = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", probe, "probe"])
        .arg(&path)
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("complete ") && l.contains("-F ") && l.ends_with(" seozoom")),
        "not registered: {stdout}"
    );
    assert!(stdout.contains("offered: keywords\n"), "{stdout}");
    assert!(
        !stdout.contains("offered: metrics\n"),
        "only actions starting with k: {stdout}"
    );
}

#[test]
fn the_man_page_lists_every_action_with_an_example() {
    let page = run(["man"]);
    page.expect_code(0);
    assert!(page.stdout.starts_with(".ie") || page.stdout.contains(".TH seozoom 1"));
    for op in OPERATIONS {
        let name = format!("seozoom {} {}", op.group, op.action);
        assert!(page.stdout.contains(&format!("\\fB{name}\\fR")), "{name}");
    }
    assert!(page.stdout.matches("Example: ").count() >= OPERATIONS.len());
}

#[test]
fn every_action_help_ends_with_an_example() {
    for op in OPERATIONS {
        let help = run([op.group, op.action, "--help"]);
        help.expect_code(0);
        let last = help.stdout.trim_end().lines().last().unwrap_or_default();
        assert!(
            last.trim_start()
                .starts_with(&format!("seozoom {} {}", op.group, op.action)),
            "{}: {last}",
            op.label()
        );
    }
}

#[test]
fn the_help_of_keywords_metrics() {
    let help = run_with_env(["keywords", "metrics", "--help"], &[("COLUMNS", "100")]);
    help.expect_code(0);
    insta::assert_snapshot!(help.stdout);
}
