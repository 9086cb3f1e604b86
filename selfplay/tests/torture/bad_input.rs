//! (c) Bad input: positions, variant files, UCI lines, option values. No panic, no hang,
//! and a refusal says why.

use super::*;
const BAD_LIMIT: Duration = Duration::from_secs(30);

/// Runs a command given bad input: no panic, no hang, and a refusal says something.
fn bad_input(t: &mut Tally, args: &[&str], stdin: &[u8]) -> Option<Ran> {
    t.inputs += 1;
    let r = run(args, stdin, BAD_LIMIT);
    if !t.survived(&format!("{args:?}"), &r) {
        return None;
    }
    if !r.ok() && r.stderr.trim().is_empty() {
        t.unclear += 1;
        t.failures.push(format!("{args:?}: fails without a word"));
    }
    Some(r)
}

/// Every cut of `text` at a step, and copies with one character replaced.
fn mangled(text: &str, step: usize, with: &[char]) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<String> = (0..chars.len())
        .step_by(step)
        .map(|i| chars[..i].iter().collect())
        .collect();
    for (k, i) in (0..chars.len()).step_by(step).enumerate() {
        let mut c = chars.clone();
        c[i] = with[k % with.len()];
        out.push(c.into_iter().collect());
    }
    out
}

#[test]
fn malformed_positions_are_refused_without_panic() {
    let mut t = Tally::default();
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let mut positions: Vec<String> = [
        "",
        " ",
        "startpos",
        "x",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "K7/8/8/8/8/8/8/8 w - - 0 1",
        "kK6/8/8/8/8/8/8/8 w - - 0 1",
        "kk6/8/8/8/8/8/8/KK6 w - - 0 1",
        "k7/8/8/8/8/8/8/K7 w KQkq - 0 1",
        "k7/8/8/8/8/8/8/K7 w - e9 0 1",
        "k7/8/8/8/8/8/8/K7 w - a3 0 1",
        "k7/8/8/8/8/8/8/K7 w - - -1 1",
        "k7/8/8/8/8/8/8/K7 w - - 0 18446744073709551616",
        "k7/9/8/8/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/8/8/8/K7/8 w - - 0 1",
        "k7/8/8/8/8/8/8 w - - 0 1",
        "k7/8/8/8/8/8/8/K7 x - - 0 1",
        "99999999999999999999/8/8/8/8/8/8/K6k w - - 0 1",
        "P3k3/8/8/8/8/8/8/4K2p w - - 0 1",
        "k7/8/8/8/8/8/8/K6Q b - - 0 1",
        "k7/é/8/8/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/8/8/8/K7 w - - 0 1 extra words",
        "[Q]/8/8 w",
        "////////////////",
    ]
    .map(String::from)
    .to_vec();
    positions.push("/".repeat(100_000));
    positions.extend(mangled(fen, size(7, 1), &['9', 'Z', '/', ' ', '-', 'k']));
    let variants: &[&str] = if long() {
        &[
            "chess",
            "dream-chess-46",
            "dialectic",
            "extreme-2d",
            "gateway",
            "dai-mitregi",
        ]
    } else {
        &["chess", "gateway"]
    };
    for v in variants {
        for p in &positions {
            bad_input(
                &mut t,
                &["search", "--variant", v, "--position", p, "--depth", "2"],
                b"",
            );
            if long() {
                bad_input(
                    &mut t,
                    &["perft", "--variant", v, "--position", p, "--depth", "2"],
                    b"",
                );
            }
        }
    }
    t.finish("bad-positions");
}

#[test]
fn malformed_variant_files_are_refused_without_panic() {
    let mut t = Tally::default();
    let dir = tmp("toml");
    std::fs::create_dir_all(&dir).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/variants");
    let capa = std::fs::read_to_string(data.join("capablanca.toml")).unwrap();
    let piece = |betza: &str, extra: &str| {
        format!(
            "name = \"odd\"\ninherits = \"chess\"\n[[pieces]]\nname = \"odd\"\nletter = \"O\"\n\
             betza = \"{betza}\"\nvalue = 300\n{extra}"
        )
    };
    let mut files: Vec<String> = vec![
        String::new(),
        "\u{0}\u{1}\u{2}".into(),
        "name = ".into(),
        "name = \"\"\ninherits = \"chess\"".into(),
        "name = \"chess\"\ninherits = \"chess\"".into(),
        "name = \"loop\"\ninherits = \"loop\"".into(),
        "name = \"x\"\ninherits = \"nothing\"".into(),
        "name = \"x\"\ninherits = \"chess\"\n[board]\nfiles = 0\nranks = 0".into(),
        "name = \"x\"\ninherits = \"chess\"\n[board]\nfiles = 100000\nranks = 100000".into(),
        "name = \"x\"\ninherits = \"chess\"\n[board]\nfiles = -1\nranks = 8".into(),
        "name = \"x\"\ninherits = \"chess\"\n[board]\nfiles = 1\nranks = 1".into(),
        "name = \"x\"\ninherits = \"chess\"\nsetup = \"\"".into(),
        "name = \"x\"\ninherits = \"chess\"\nsetup = \"rnbqkbnr w\"".into(),
        "name = \"x\"\ninherits = \"chess\"\nsetup = \"8/8/8/8/8/8/8/8 w - - 0 1\"".into(),
        piece("", ""),
        piece("W99999", ""),
        piece("((((", ""),
        piece("ZZ", ""),
        piece("mW", ""),
        piece("W", "royal = true"),
        piece("W", "promotes_to = [\"X\"]"),
        piece("W", "value = 1e400"),
        piece("W", "value = -99999999999999999999"),
        "name = \"x\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"\"\nbetza = \"W\"".into(),
        "name = \"x\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"PP\"\nbetza = \"W\"".into(),
        "name = \"x\"\ninherits = \"chess\"\n[rules]\ncastling = [{ king = [\"z9\", \"a1\"], \
         rook = [\"a1\", \"b1\"] }]"
            .into(),
    ];
    files.push(format!("# {}\n", "x".repeat(2 << 20)));
    let lines: Vec<&str> = capa.lines().collect();
    for n in (0..lines.len()).step_by(size(6, 1)) {
        files.push(lines[..n].join("\n"));
        files.push(
            lines
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != n)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    files.extend(mangled(
        &capa,
        size(97, 5),
        &['"', '[', '9', '=', 'x', '\n'],
    ));
    for (i, text) in files.iter().enumerate() {
        let f = dir.join(format!("v{i}.toml"));
        std::fs::write(&f, text).unwrap();
        bad_input(
            &mut t,
            &["perft", "--variant-file", s(&f), "--depth", "2"],
            b"",
        );
    }
    // Not a regular file, not there.
    for f in ["/dev/zero", "/", "/nonexistent/v.toml"] {
        bad_input(&mut t, &["perft", "--variant-file", f, "--depth", "1"], b"");
    }
    t.finish("bad-variant-files");
}

#[test]
fn bad_uci_lines_are_answered_and_the_engine_goes_on() {
    let mut t = Tally::default();
    let dir = tmp("uci");
    std::fs::create_dir_all(&dir).unwrap();
    let bad_toml = dir.join("bad.toml");
    std::fs::write(&bad_toml, "name = \"x\"\ninherits = \"nothing\"").unwrap();
    let mut lines: Vec<String> = [
        "",
        "   ",
        "\t",
        "\0",
        "setoption",
        "setoption name",
        "setoption value 3",
        "setoption name UCI_Variant value nonsense",
        "setoption name UCI_Variant value",
        "setoption name UCI_Variant",
        "setoption name Hash value -1",
        "setoption name Hash value 0",
        "setoption name Hash value abc",
        "setoption name Hash value 99999999999999999999",
        "setoption name Threads value 0",
        "setoption name Threads value 100000",
        "setoption name UCI_VariantFile value /nonexistent.toml",
        "setoption name UCI_VariantFile value /dev/zero",
        "setoption name UCI_VariantFile value /",
        "setoption name EngineConfig value {",
        "setoption name EngineConfig value /nonexistent.json",
        "setoption name NoSuchOption value 1",
        "position",
        "position fen",
        "position fen garbage",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen k7/8/8/8/8/8/8/K7 w - - 0 1 moves a1a2",
        "position startpos moves",
        "position startpos moves e2e4 e2e4",
        "position startpos moves zz99",
        "position startpos moves e7e8q",
        "position startpos moves e2e4 moves e7e5",
        "position startpos moves f2f3 e7e5 g2g4 d8h4",
        "go depth 0",
        "go depth -1",
        "go depth 99999999999999999999",
        "go nodes 0",
        "go nodes abc",
        "go movetime 0",
        "go movetime -1",
        "go wtime -5 btime -5",
        "go wtime 0 btime 0 winc 0 binc 0",
        "go movestogo 0 wtime 100 btime 100",
        "go searchmoves zz99 depth 2",
        "go ponder depth 2",
        "stop",
        "ponderhit",
        "ucinewgame",
        "debug on",
        "register later",
        "eval",
        "d",
        "perft 2",
    ]
    .map(String::from)
    .to_vec();
    lines.push(format!(
        "setoption name UCI_VariantFile value {}",
        s(&bad_toml)
    ));
    lines.push("a".repeat(1 << 20));
    lines.push(format!(
        "position startpos moves {}",
        "g1f3 g8f6 f3g1 f6g8 ".repeat(100)
    ));
    let variants: &[&str] = if long() {
        &[
            "chess",
            "dream-chess-46",
            "dialectic",
            "dialectic-hegelian",
            "extreme-2d",
            "extreme-2d-simple",
            "gateway",
            "dai-mitregi",
            "dai-mitregi-stepping",
        ]
    } else {
        &["chess"]
    };
    for v in variants {
        for line in &lines {
            let session = format!(
                "uci\nsetoption name UCI_Variant value {v}\n{line}\nisready\n\
                 position startpos\ngo depth 1\nisready\nquit\n"
            );
            let Some(r) = bad_input(&mut t, &["uci"], session.as_bytes()) else {
                continue;
            };
            if r.stdout.matches("readyok").count() < 2 {
                t.failures.push(format!(
                    "uci {v}: {:?}: stopped answering: {}",
                    &line[..line.len().min(80)],
                    tail(&r.stdout)
                ));
            }
        }
        // A line that is not UTF-8.
        let session = format!("uci\nsetoption name UCI_Variant value {v}\n\u{1}");
        let mut bytes = session.into_bytes();
        bytes.extend_from_slice(b"\xff\xfe position\nisready\nquit\n");
        bad_input(&mut t, &["uci"], &bytes);
    }
    t.finish("bad-uci-lines");
}

#[test]
fn bad_option_values_are_refused_without_panic() {
    let mut t = Tally::default();
    let out = tmp("options");
    let o = s(&out);
    let play: Vec<&str> = vec![
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "50",
        "--max-plies",
        "20",
        "--out",
        o,
        "--quiet",
        "--force",
    ];
    let search: Vec<&str> = vec!["search", "--variant", "chess", "--depth", "1"];
    let sprt: Vec<&str> = vec![
        "sprt",
        "--variant",
        "chess",
        "--test",
        "default",
        "--max-games",
        "2",
        "--nodes",
        "50",
        "--out",
        o,
        "--quiet",
        "--force",
    ];
    let cases: Vec<(&Vec<&str>, &str, Vec<&str>)> = vec![
        (&play, "--variant", vec!["", "nonexistent", "chess,chess"]),
        (
            &play,
            "--games",
            vec!["", "0", "-1", "abc", "1.5", "99999999999999999999"],
        ),
        (
            &play,
            "--nodes",
            vec!["", "0", "-5", "x", "99999999999999999999"],
        ),
        (&play, "--depth", vec!["-1", "x", ""]),
        (&play, "--movetime", vec!["0", "-1", "x"]),
        (
            &play,
            "--tc",
            vec!["", "+", "1+", "+1", "0+0", "-1+0", "x+y", "1+2+3"],
        ),
        (&play, "--threads", vec!["0", "-1", "x", "1000"]),
        (&play, "--seed", vec!["-1", "x", "99999999999999999999999"]),
        (
            &play,
            "--openings",
            vec![
                "",
                "balanced-plies",
                "balanced-plies:",
                "balanced-plies:x",
                "balanced-plies:-1",
                "balanced-plies:6:x",
                "random-plies:99999999999",
                "trades:",
                "trades:1:2:3",
                "/nonexistent.epd",
                "/",
            ],
        ),
        (&play, "--max-plies", vec!["0", "-1", "x"]),
        (
            &play,
            "--adjudicate-resign",
            vec!["", "x", "1:", ":1", "-1:-1", "1:2:3"],
        ),
        (
            &play,
            "--adjudicate-draw",
            vec!["", "1:2", "x:y:z", "-1:-1:-1"],
        ),
        (
            &play,
            "--shard",
            vec!["", "0/2", "3/2", "1/0", "x/y", "1/2/3"],
        ),
        (
            &play,
            "--white",
            vec!["", "/nonexistent.json", "/", "{", "engine:"],
        ),
        (&search, "--hash", vec!["0", "-1", "x", "99999999999999"]),
        (
            &search,
            "--values",
            vec![
                "",
                "x",
                "pawn=",
                "pawn=x",
                "nopiece=100",
                "@/nonexistent",
                "@/",
            ],
        ),
        (&search, "--config", vec!["/nonexistent.json", "/", ""]),
        (&search, "--nodes", vec!["0", "-1", "x"]),
        (&sprt, "--elo0", vec!["x", "nan", "inf", ""]),
        (&sprt, "--elo1", vec!["-inf", "nan"]),
        (&sprt, "--alpha", vec!["0", "1", "2", "-0.1", "nan"]),
        (&sprt, "--beta", vec!["0", "1", "nan"]),
        (&sprt, "--model", vec!["x", ""]),
        (&sprt, "--max-games", vec!["0", "-1", "x"]),
        (&sprt, "--base", vec!["", "/nonexistent.json", "engine:"]),
    ];
    for (base, option, values) in &cases {
        for value in values {
            let mut args = (*base).clone();
            args.extend([*option, *value]);
            bad_input(&mut t, &args, b"");
        }
    }
    t.finish("bad-option-values");
}
