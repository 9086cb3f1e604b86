//! `games.pgn`: every recorded game as a PGN record, for chess GUIs, tournament managers and
//! python-chess.
//!
//! A record is made from the game's `games.csv` row and its `moves.csv` rows alone, so the
//! PGN can never disagree with the CSVs, and it can be rebuilt from them at any time: a
//! resumed run rewrites `games.pgn` from the rows it keeps (a record cut by a kill is thereby
//! dropped, never duplicated), a finished run and `merge` write it in game-id order.
//!
//! Chess moves are in SAN (converted with shakmaty); other variants keep their coordinate
//! move texts. A game from a `random-plies:P` opening is written from the variant's start
//! with the opening plies in the movetext (followed by the comment `{end of opening}`); a
//! game from a position of an openings file has that position as `FEN` with `SetUp "1"`.
//! Either way a reader replays the movetext to the game's final position.

use crate::run::format::RunConfig;
use anyhow::{anyhow, bail, Context, Result};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use variantlab_engine::game::Game;
use variantlab_engine::{with_variant, Color, VariantKind};

/// Longest movetext line (PGN export format asks for at most 79 characters).
const LINE: usize = 79;

/// One ply: who moved and the move as written in the PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ply {
    side: Color,
    text: String,
}

/// One game's moves as recorded in `moves.csv`: (side, move text) in ply order.
pub type GameMoves = Vec<(Color, String)>;

/// Groups `moves.csv` rows by game id, each game's moves in ply order (rows of different
/// games may be interleaved, as they are in a run's file before it is rewritten).
pub fn moves_by_game(rows: &[Vec<String>]) -> BTreeMap<u64, GameMoves> {
    let mut games: BTreeMap<u64, Vec<(u64, Color, String)>> = BTreeMap::new();
    for r in rows {
        let (Ok(id), Ok(ply)) = (r[0].parse::<u64>(), r[1].parse::<u64>()) else {
            continue;
        };
        let side = if r[3] == "black" {
            Color::Black
        } else {
            Color::White
        };
        games.entry(id).or_default().push((ply, side, r[2].clone()));
    }
    games
        .into_iter()
        .map(|(id, mut plies)| {
            plies.sort_by_key(|p| p.0);
            (id, plies.into_iter().map(|(_, s, m)| (s, m)).collect())
        })
        .collect()
}

/// The PGN record of one game from its `games.csv` row and its moves, ending in a blank
/// line. Moves that cannot be written (which would be a bug) leave a record with the tags,
/// a comment saying why and the result, so the file stays readable and no game is missing.
pub fn record(config: &RunConfig, row: &[String], moves: &[(Color, String)]) -> String {
    let from_position = !crate::run::openings::plays_from_start(&config.openings);
    let opening = row.get(4).map_or("", String::as_str);
    let kind = config.variant;
    let text = with_variant!(kind, G => plies::<G>(kind, from_position, opening, moves));
    let (fen, first_number, opening_plies, game_plies) = match text {
        Ok(t) => t,
        Err(e) => {
            let id = row.first().map_or("?", String::as_str);
            eprintln!("warning: games.pgn: game {id}: {e:#}; its moves are only in moves.csv");
            (
                from_position.then(|| opening.to_string()),
                1,
                Vec::new(),
                Err(format!("{e:#}")),
            )
        }
    };
    let field = |i: usize| row.get(i).map_or("?", String::as_str);
    let result = field(7);
    let termination = field(8);
    let plies_written = opening_plies.len() + game_plies.as_ref().map_or(0, Vec::len);

    let mut tags: Vec<(&str, String)> = vec![
        ("Event", event(config)),
        ("Site", "?".into()),
        ("Date", pgn_date(config.started)),
        ("Round", field(0).into()),
        ("White", field(5).into()),
        ("Black", field(6).into()),
        ("Result", result.into()),
        (
            "Variant",
            if config.variant == VariantKind::Chess {
                "Standard".into()
            } else {
                config.variant.name().to_string()
            },
        ),
    ];
    if let Some(fen) = fen {
        tags.push(("SetUp", "1".into()));
        tags.push(("FEN", fen));
    }
    tags.push(("Termination", pgn_termination(termination).into()));
    tags.push(("PlyCount", plies_written.to_string()));
    tags.push((
        "TimeControl",
        config.tc.map_or_else(|| "-".into(), |tc| tc.to_string()),
    ));
    tags.push(("Annotator", format!("variantlab {}", config.engine_version)));

    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');

    let mut tokens = Vec::new();
    let mut number = first_number;
    let mut last: Option<Color> = None;
    let mut after_comment = false;
    let mut push_plies = |tokens: &mut Vec<String>, plies: &[Ply], after_comment: &mut bool| {
        for p in plies {
            // A move number stays on the line of its move.
            tokens.push(match p.side {
                Color::White => {
                    if last == Some(Color::White) {
                        number += 1;
                    }
                    format!("{number}. {}", p.text)
                }
                Color::Black if last != Some(Color::White) || *after_comment => {
                    format!("{number}... {}", p.text)
                }
                Color::Black => p.text.clone(),
            });
            if p.side == Color::Black {
                number += 1;
            }
            last = Some(p.side);
            *after_comment = false;
        }
    };
    push_plies(&mut tokens, &opening_plies, &mut after_comment);
    if !opening_plies.is_empty() {
        tokens.push("{end of opening}".into());
        after_comment = true;
    }
    match &game_plies {
        Ok(plies) => push_plies(&mut tokens, plies, &mut after_comment),
        Err(e) => tokens.push(format!(
            "{{variantlab could not write the moves: {}; they are in moves.csv}}",
            comment_text(e)
        )),
    }
    tokens.push(format!("{{{}}}", comment_text(termination)));
    tokens.push(result.into());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > LINE {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The plies of a game written for the PGN: the `FEN` tag (a game from a position), the
/// first move number, the opening plies and the game's plies.
type Plies = (Option<String>, u32, Vec<Ply>, Result<Vec<Ply>, String>);

fn plies<G: Game>(
    kind: VariantKind,
    from_position: bool,
    opening: &str,
    moves: &[(Color, String)],
) -> Result<Plies> {
    if kind == VariantKind::Chess {
        return chess_plies(from_position, opening, moves);
    }
    // Other variants keep their coordinate moves; the opening plies are replayed to learn
    // who made them (and to check them), the game's sides come from moves.csv.
    let mut opening_plies = Vec::new();
    let fen = if from_position {
        G::from_text(opening).map_err(|e| anyhow!("opening position: {e}"))?;
        Some(opening.to_string())
    } else {
        let mut pos = G::start();
        for text in opening.split_whitespace() {
            let side = pos.turn();
            pos.play_text(text)
                .map_err(|e| anyhow!("opening move {text:?}: {e}"))?;
            opening_plies.push(Ply {
                side,
                text: token(text)?,
            });
        }
        None
    };
    let game = moves
        .iter()
        .map(|(side, text)| {
            Ok(Ply {
                side: *side,
                text: token(text)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((fen, 1, opening_plies, Ok(game)))
}

/// Chess in SAN, replayed with shakmaty: every move is checked, and the FEN of a position
/// opening is written in full (shakmaty's normal form) with its move number kept.
fn chess_plies(from_position: bool, opening: &str, moves: &[(Color, String)]) -> Result<Plies> {
    let (mut pos, fen) = if from_position {
        let fen = Fen::from_ascii(opening.as_bytes())
            .map_err(|e| anyhow!("opening position {opening:?}: {e}"))?;
        // The engine accepted the position; shakmaty's stricter check on how a check
        // could have arisen is waived.
        let pos: Chess = match fen.into_position(CastlingMode::Standard) {
            Ok(pos) => pos,
            Err(e) => e
                .ignore_impossible_check()
                .map_err(|e| anyhow!("opening position {opening:?}: {e}"))?,
        };
        let text = Fen::from_position(pos.clone(), EnPassantMode::Legal).to_string();
        (pos, Some(text))
    } else {
        (Chess::default(), None)
    };
    let first_number = pos.fullmoves().get();
    let mut play = |text: &str| -> Result<Ply> {
        let side = if pos.turn().is_white() {
            Color::White
        } else {
            Color::Black
        };
        let m = UciMove::from_ascii(text.as_bytes())
            .map_err(|e| anyhow!("move {text:?}: {e}"))?
            .to_move(&pos)
            .map_err(|e| anyhow!("move {text:?}: {e}"))?;
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, &m);
        Ok(Ply {
            side,
            text: san.to_string(),
        })
    };
    let opening_plies = if from_position {
        Vec::new()
    } else {
        opening
            .split_whitespace()
            .map(&mut play)
            .collect::<Result<Vec<_>>>()
            .context("opening")?
    };
    let game = moves
        .iter()
        .map(|(_, text)| play(text))
        .collect::<Result<Vec<_>>>()
        .map_err(|e| format!("{e:#}"));
    Ok((fen, first_number, opening_plies, game))
}

/// A coordinate move as one movetext token: refused if it holds what PGN gives a meaning of
/// its own (spaces, comments, variations), which would make the record unreadable.
fn token(text: &str) -> Result<String> {
    if text.is_empty()
        || text
            .chars()
            .any(|c| c.is_whitespace() || "{}();%\"".contains(c))
    {
        bail!("move {text:?} cannot be a PGN movetext token");
    }
    Ok(text.to_string())
}

/// The `Event` tag: the run's variant and limits.
fn event(config: &RunConfig) -> String {
    let limits = match (config.nodes, config.depth, config.movetime, config.tc) {
        (Some(n), ..) => format!("{n} nodes per move"),
        (None, Some(d), ..) => format!("depth {d}"),
        (None, None, Some(ms), _) => format!("{ms} ms per move"),
        (None, None, None, Some(tc)) => format!("clock {tc}"),
        _ => "default limits".into(),
    };
    format!(
        "variantlab {} {}, {limits}",
        config.variant.name(),
        config.openings
    )
}

/// PGN's standard `Termination` values (what tournament managers read); variantlab's own
/// reason is the comment before the result.
fn pgn_termination(reason: &str) -> &'static str {
    match reason {
        "max_plies" | "adjudication" => "adjudication",
        "illegal_move" | "engine_protocol" => "rules infraction",
        "time_forfeit" => "time forfeit",
        "engine_crash" => "abandoned",
        _ => "normal",
    }
}

/// `YYYY.MM.DD` (UTC) of the run's start, `????.??.??` when unknown.
fn pgn_date(unix: u64) -> String {
    if unix == 0 {
        return "????.??.??".into();
    }
    let (y, m, d) = crate::output::civil_date(unix);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A tag value with PGN's escapes (`\"`, `\\`) and no line breaks.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// Text safe inside a `{...}` comment.
fn comment_text(text: &str) -> String {
    text.replace('}', ")").replace(['\n', '\r'], " ")
}

/// Writes `games.pgn` with the records of `rows` in their order, through a temporary file
/// and a rename, so it is never half written.
///
/// # Errors
/// An unwritable folder.
pub fn rewrite(
    path: &Path,
    config: &RunConfig,
    rows: &[Vec<String>],
    moves: &BTreeMap<u64, GameMoves>,
) -> Result<()> {
    crate::output::replace_file_with(path, |w| {
        for r in rows {
            let id = r[0].parse::<u64>().unwrap_or(u64::MAX);
            let m = moves.get(&id).map_or(&[][..], Vec::as_slice);
            w.write_all(record(config, r, m).as_bytes())?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(pgn_date(0), "????.??.??");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_735_689_599), "2024.12.31");
        assert_eq!(pgn_date(1_735_689_600), "2025.01.01");
    }

    #[test]
    fn tag_values_and_comments_are_escaped() {
        assert_eq!(escape(r#"a "b" \c"#), r#"a \"b\" \\c"#);
        assert_eq!(comment_text("x}y"), "x)y");
    }

    fn config(variant: &str, openings: &str) -> RunConfig {
        let variant = variantlab_engine::VariantKind::from_name(variant).unwrap();
        let mut c = RunConfig::self_play(variant, 2, 100, 1, 1);
        c.openings = openings.into();
        c.started = 1_735_689_600;
        c
    }

    fn row(id: u64, opening: &str, result: &str, termination: &str, plies: usize) -> Vec<String> {
        let mut r: Vec<String> = [
            id.to_string(),
            (id / 2).to_string(),
            "1".into(),
            "chess".into(),
            opening.into(),
            "default".into(),
            "other".into(),
            result.into(),
            termination.into(),
            plies.to_string(),
        ]
        .to_vec();
        r.push("0".into());
        r
    }

    fn moves(list: &[&str], first: Color) -> GameMoves {
        let mut side = first;
        list.iter()
            .map(|m| {
                let s = side;
                side = !side;
                (s, m.to_string())
            })
            .collect()
    }

    #[test]
    fn chess_is_in_san_from_the_start_with_the_opening_marked() {
        let c = config("chess", "random-plies:2");
        let m = moves(&["f2f3", "e7e5", "g2g4", "d8h4"], Color::White);
        let pgn = record(&c, &row(3, "a2a3 a7a6", "0-1", "checkmate", 4), &m);
        assert!(pgn.starts_with("[Event \"variantlab chess random-plies:2, 100 nodes per move\"]\n[Site \"?\"]\n[Date \"2025.01.01\"]\n[Round \"3\"]\n[White \"default\"]\n[Black \"other\"]\n[Result \"0-1\"]\n[Variant \"Standard\"]\n"), "{pgn}");
        assert!(!pgn.contains("FEN"));
        assert!(pgn.contains("[Termination \"normal\"]\n[PlyCount \"6\"]\n"));
        assert!(
            pgn.ends_with("\n\n1. a3 a6 {end of opening} 2. f3 e5 3. g4 Qh4# {checkmate} 0-1\n\n"),
            "{pgn}"
        );
    }

    #[test]
    fn a_position_opening_is_the_fen_and_castling_and_promotion_are_san() {
        let c = config("chess", "openings.txt");
        let fen = "r3k3/6P1/8/8/8/8/8/R3K2R b KQq - 0 20";
        let m = moves(&["e8c8", "g7g8q", "d8g8", "e1c1"], Color::Black);
        let pgn = record(&c, &row(0, fen, "1/2-1/2", "max_plies", 4), &m);
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"r3k3/6P1/8/8/8/8/8/R3K2R b KQq - 0 20\"]\n"));
        assert!(pgn.contains("[Termination \"adjudication\"]"));
        assert!(
            pgn.ends_with("\n\n20... O-O-O 21. g8=Q Rxg8 22. O-O-O {max_plies} 1/2-1/2\n\n"),
            "{pgn}"
        );
    }

    #[test]
    fn an_illegal_move_leaves_a_readable_record_and_the_result() {
        let c = config("chess", "random-plies:0");
        let pgn = record(
            &c,
            &row(1, "", "1-0", "illegal_move", 1),
            &moves(&["e2e5"], Color::White),
        );
        assert!(pgn.contains("[PlyCount \"0\"]"));
        assert!(pgn.contains("[Termination \"rules infraction\"]"));
        assert!(pgn.contains("{variantlab could not write the moves: move \"e2e5\""));
        assert!(pgn.trim_end().ends_with("{illegal_move} 1-0"));
    }

    #[test]
    fn other_variants_keep_their_coordinate_moves() {
        let c = config("dai-mitregi", "random-plies:0");
        let m = moves(&["N*e5", "d13c15+", "K@c1,H@h1"], Color::White);
        let pgn = record(&c, &row(4, "", "1/2-1/2", "max_plies", 3), &m);
        assert!(pgn.contains("[Variant \"dai-mitregi\"]"));
        assert!(pgn.contains("\n\n1. N*e5 d13c15+ 2. K@c1,H@h1 {max_plies} 1/2-1/2\n\n"));
        let bad = record(
            &c,
            &row(4, "", "1/2-1/2", "max_plies", 1),
            &moves(&["a b"], Color::White),
        );
        assert!(bad.contains("cannot be a PGN movetext token"));
    }

    #[test]
    fn long_games_wrap_within_80_columns() {
        let c = config("chess", "random-plies:0");
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let list: Vec<&str> = shuffle.iter().cycle().take(60).copied().collect();
        let pgn = record(
            &c,
            &row(0, "", "1/2-1/2", "repetition", 60),
            &moves(&list, Color::White),
        );
        assert!(pgn.lines().all(|l| l.len() <= 79), "{pgn}");
        assert!(pgn.contains("30. Ng1 Ng8 {repetition} 1/2-1/2"));
    }
}
