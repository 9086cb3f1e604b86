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

/// A network on the linear evaluation adds its output to it: one whose output is 0
/// everywhere searches exactly as the linear evaluation does (same move, score and nodes), in
/// chess and in a free-form variant; a random one on it does not; and a base this build does
/// not know is refused naming the file.
#[test]
fn a_network_on_the_linear_evaluation_adds_to_it() {
    let dir = tmp("on-linear");
    let config = |name: &str, eval: &str| {
        let cfg = dir.join(format!("{name}.json"));
        std::fs::write(
            &cfg,
            format!("{{\"name\": \"{name}\", \"eval\": \"{eval}\"}}"),
        )
        .unwrap();
        cfg.to_str().unwrap().to_string()
    };
    let search = |variant: &str, cfg: &str| {
        let o = variantlab(&[
            "search",
            "--variant",
            variant,
            "--nodes",
            "3000",
            "--config",
            cfg,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        // Everything but the speed.
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let words: Vec<&str> = out.split_whitespace().collect();
        let nps = words.iter().position(|&w| w == "nps").expect("nps");
        [&words[..nps], &words[nps + 2..]].concat().join(" ")
    };
    fn write<G: variantlab_engine::Game>(path: &Path, zero: bool, base: &str) {
        let layout = InputLayout::of::<G>();
        let mut float = FloatNet::new(layout.features, 16, 9);
        if zero {
            float.out_weights.iter_mut().for_each(|w| *w = 0.0);
        }
        let info = NetInfo {
            base: Some(base.to_string()),
            ..NetInfo::default()
        };
        Network::quantize::<G>(&float, info).0.write(path).unwrap();
    }
    let linear = config("linear", "linear");
    let zero = dir.join("zero.vlnet");
    write::<Position<Chess>>(&zero, true, "linear");
    let on_zero = config("zero", &format!("net:{}", zero.display()));
    assert_eq!(search("chess", &linear), search("chess", &on_zero));
    let random = dir.join("random.vlnet");
    write::<Position<Chess>>(&random, false, "linear");
    let on_random = config("random", &format!("net:{}", random.display()));
    assert_ne!(search("chess", &linear), search("chess", &on_random));
    // A free-form variant (no tuned weights needed: the classic terms are its linear one).
    let dz = dir.join("dialectic-zero.vlnet");
    write::<variantlab_engine::variants::dialectic::Dialectic>(&dz, true, "linear");
    let on_dz = config("dz", &format!("net:{}", dz.display()));
    assert_eq!(search("dialectic", &linear), search("dialectic", &on_dz));
    let odd = dir.join("odd.vlnet");
    write::<Position<Chess>>(&odd, true, "quadratic");
    let e = refused("chess", &config("odd", &format!("net:{}", odd.display())));
    assert!(
        e.contains("odd.vlnet") && e.contains("\"quadratic\" is not one this build knows"),
        "{e}"
    );
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
