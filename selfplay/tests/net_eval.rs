//! Engine configurations that evaluate with a network (`"eval": "net:PATH"`, issue 54): a
//! search and a game with one, and the refusals of a network for another variant, a missing
//! file and a damaged one, each naming the file.

mod common;

use common::variantlab;
use std::path::{Path, PathBuf};
use variantlab_engine::nnue::{FloatNet, InputLayout, NetInfo, Network};
use variantlab_engine::position::Position;
use variantlab_engine::variants::Chess;

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-net-eval-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A random chess network in `dir/chess.vlnet` and a configuration using it.
fn chess_net(dir: &Path) -> (PathBuf, PathBuf) {
    let layout = InputLayout::of::<Position<Chess>>();
    let float = FloatNet::new(layout.features, 32, 4);
    let (net, _) = Network::quantize::<Position<Chess>>(&float, NetInfo::default());
    let path = dir.join("chess.vlnet");
    net.write(&path).unwrap();
    let cfg = dir.join("net.json");
    std::fs::write(
        &cfg,
        format!(
            "{{\"name\": \"net\", \"eval\": \"net:{}\"}}",
            path.display()
        ),
    )
    .unwrap();
    (path, cfg)
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `variantlab search` of `variant`'s start with configuration `cfg`, expected to fail: its
/// error text.
fn refused(variant: &str, cfg: &str) -> String {
    let o = variantlab(&[
        "search",
        "--variant",
        variant,
        "--nodes",
        "100",
        "--config",
        cfg,
    ]);
    assert!(!o.status.success(), "{variant} with {cfg} was not refused");
    stderr(&o)
}

#[test]
fn a_configuration_evaluates_with_a_network() {
    let dir = tmp("ok");
    let (_, cfg) = chess_net(&dir);
    let cfg = cfg.to_str().unwrap();
    let o = variantlab(&[
        "search",
        "--variant",
        "chess",
        "--nodes",
        "2000",
        "--config",
        cfg,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("run");
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "300",
        "--white",
        cfg,
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 3, "{games}");
    assert!(!games.contains("forfeit"), "{games}");
}

#[test]
fn a_network_for_other_inputs_or_a_damaged_file_is_refused_naming_it() {
    let dir = tmp("refused");
    let (path, cfg) = chess_net(&dir);
    let cfg = cfg.to_str().unwrap();
    let e = refused("dream-chess-46", cfg);
    assert!(
        e.contains("chess.vlnet") && e.contains("chess/v1") && e.contains("dream-chess-46/v1"),
        "{e}"
    );
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let e = refused("chess", cfg);
    assert!(
        e.contains("chess.vlnet") && e.contains("bytes of weights"),
        "{e}"
    );
    std::fs::remove_file(&path).unwrap();
    let e = refused("chess", cfg);
    assert!(
        e.contains("chess.vlnet") && e.contains("cannot read"),
        "{e}"
    );
}
