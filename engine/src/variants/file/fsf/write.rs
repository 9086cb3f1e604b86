//! A [`VariantSpec`] written in Fairy-Stockfish's format, so that Fairy-Stockfish can play a
//! variant of ours (`variantlab export --fsf`). A rule the format cannot express is an error
//! naming it, never an approximation.
//!
//! [D] Where Fairy-Stockfish renamed a key, both forms are written (`promotionRank` and
//! `promotionRegionWhite`/`Black`, `doubleStepRank` and `doubleStepRegionWhite`/`Black`): old
//! versions (Debian's 11.1) read the first and ignore the second, new ones let the second
//! override the first. Pieces use Fairy-Stockfish's built-in piece types where the movement
//! is one of theirs (old versions have no `customPiece`).

use super::read::TYPES;
use crate::ends::EndValue;
use crate::geometry::Topology;
use crate::rules::{FenStyle, VariantSpec};
use crate::Color;
use std::fmt::Write as _;

/// Writes `spec` as a `variants.ini` section named after it.
///
/// # Errors
/// The first rule the format cannot express, named.
pub fn export(spec: &VariantSpec) -> Result<String, String> {
    let topo = &spec.topology;
    let (files, ranks, levels) = topo.dims();
    if levels > 1 {
        return Err(
            "a board of several levels cannot be expressed (Fairy-Stockfish's boards are flat)"
                .into(),
        );
    }
    if topo.num_cells() != topo.num_squares() {
        return Err(
            "holes in the board cannot be expressed (Fairy-Stockfish's boards are rectangles)"
                .into(),
        );
    }
    if !topo.regions().is_empty() {
        return Err("the step rule of board regions (supersquares) cannot be expressed".into());
    }
    if files > 26 {
        return Err(format!("{files} files: Fairy-Stockfish names files a-z"));
    }
    let mut out = String::new();
    let mut w = |s: String| {
        let _ = writeln!(out, "{s}");
    };
    w(format!(
        "# {}: written by variantlab from its definition ({}).",
        spec.title, spec.rules_file
    ));
    w(format!("[{}]", spec.name));
    w(format!("maxFile = {}", (b'a' + files - 1) as char));
    w(format!("maxRank = {ranks}"));

    // Pieces: each as a type with its movement; the chess types not used are removed.
    let pawn = spec.double_step.map(|d| d.letter);
    let mut used: Vec<&str> = Vec::new();
    let mut custom = 0;
    let mut type_of: Vec<(char, String)> = Vec::new();
    for p in &spec.pieces {
        let l = p.letter.to_ascii_lowercase();
        if p.royal {
            if p.betza == "K" {
                w(format!("king = {l}"));
            } else {
                w(format!("king = {l}:{}", p.betza));
            }
            type_of.push((p.letter, "king".into()));
            continue;
        }
        let is_pawn = p.betza == "fmWfcF"
            && (pawn == Some(p.letter) || (pawn.is_none() && !used.contains(&"pawn")));
        let builtin = if is_pawn {
            Some("pawn")
        } else {
            TYPES
                .iter()
                .skip(1)
                .find(|(k, b, _)| *b == Some(p.betza) && !used.contains(k))
                .map(|(k, _, _)| *k)
        };
        match builtin {
            Some(k) => {
                used.push(k);
                w(format!("{k} = {l}"));
                type_of.push((p.letter, k.into()));
            }
            None => {
                custom += 1;
                w(format!("customPiece{custom} = {l}:{}", p.betza));
                type_of.push((p.letter, format!("customPiece{custom}")));
            }
        }
    }
    for k in ["pawn", "knight", "bishop", "rook", "queen"] {
        if !used.contains(&k) {
            w(format!("{k} = -"));
        }
    }
    let is_type = |c: char, k: &str| type_of.iter().any(|(l, t)| *l == c && t == k);
    let lower = |cs: &[char]| -> String { cs.iter().map(|c| c.to_ascii_lowercase()).collect() };

    // The start position, in FEN.
    let fields: Vec<&str> = spec.start.split_whitespace().collect();
    let fen = match spec.fen_style {
        FenStyle::Chess => spec.start.to_string(),
        FenStyle::Plain => {
            let mut f = vec![fields[0], fields.get(1).copied().unwrap_or("w"), "-", "-"];
            f.extend(fields.iter().skip(2));
            f.join(" ")
        }
    };
    // A check-counting variant's start carries the counts: Fairy-Stockfish reads a FEN
    // without them as one check to give.
    let fen = match spec.end.check_count {
        Some(n) if !fen.split_whitespace().any(|f| f.contains('+')) => {
            let mut f: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
            f.insert(4.min(f.len()), format!("{n}+{n}"));
            f.join(" ")
        }
        _ => fen,
    };
    w(format!("startFen = {fen}"));
    let counts = |c: char| -> [usize; 2] {
        let board = fields[0];
        [
            board
                .chars()
                .filter(|&x| x == c.to_ascii_uppercase())
                .count(),
            board
                .chars()
                .filter(|&x| x == c.to_ascii_lowercase())
                .count(),
        ]
    };

    // Promotion.
    match &spec.promotion {
        None => w("promotionPieceTypes = -".into()),
        Some(pr) => {
            let promoting: Vec<char> = pr.pieces.to_vec();
            if !(promoting.len() == 1 && is_type(promoting[0], "pawn")) {
                w(format!("promotionPawnTypes = {}", lower(&promoting)));
            }
            w(format!("promotionPieceTypes = {}", lower(pr.choices)));
            if let Some(r) = rank_zone(topo, &pr.zone) {
                w(format!("promotionRank = {r}"));
            }
            for (i, side) in ["White", "Black"].iter().enumerate() {
                w(format!("promotionRegion{side} = {}", pr.zone[i].join(" ")));
            }
            w(format!("mandatoryPawnPromotion = {}", pr.mandatory));
            if pr.only_lost {
                let mut limits = Vec::new();
                for &c in pr.choices {
                    let [white, black] = counts(c);
                    if white != black || white == 0 {
                        return Err(format!(
                            "promotion only to a lost piece, with {white} White and {black} Black {c} at the start, cannot be expressed (promotionLimit is one count for both sides, 0 meaning no limit)"
                        ));
                    }
                    limits.push(format!("{}:{white}", c.to_ascii_lowercase()));
                }
                w(format!("promotionLimit = {}", limits.join(" ")));
            }
        }
    }

    // Double step and en passant.
    match spec.double_step {
        None => w("doubleStep = false".into()),
        Some(d) => {
            if !is_type(d.letter, "pawn") {
                return Err(format!(
                    "the double step of {} cannot be expressed: Fairy-Stockfish's double step is its Pawn's (movement fmWfcF)",
                    d.letter
                ));
            }
            if !d.en_passant {
                return Err("a double step without en passant cannot be expressed".into());
            }
            if d.ranks[1] != i16::from(ranks) - 1 - d.ranks[0] {
                return Err("a double-step rank for Black that is not the mirror of White's cannot be expressed".into());
            }
            let r = d.ranks[0] + 1;
            let ranks = i16::from(ranks);
            w("doubleStep = true".into());
            w(format!("doubleStepRank = {r}"));
            w(format!("doubleStepRankMin = {r}"));
            // A side's first rank double-steps too (Horde's White): its region has both
            // ranks, and the opponent's en passant region leaves out the first rank's pass.
            let first = |side: usize, rank: i16| match d.first_rank[side] {
                true => format!(" *{rank}"),
                false => String::new(),
            };
            w(format!("doubleStepRegionWhite ={} *{r}", first(0, 1)));
            w(format!(
                "doubleStepRegionBlack = *{}{}",
                ranks - r + 1,
                first(1, ranks)
            ));
            if d.first_rank.contains(&true) {
                w(format!("enPassantRegionWhite = *{}", ranks - r));
                w(format!("enPassantRegionBlack = *{}", r + 1));
            }
        }
    }

    // Castling.
    let white: Vec<_> = spec
        .castling
        .iter()
        .filter(|c| c.color == Color::White)
        .collect();
    if white.is_empty() {
        w("castling = false".into());
    } else {
        let cell = |s: &str| topo.parse_square(s).map(|q| topo.coord(q));
        let king_from = cell(white[0].king.0).ok_or("bad castling cell")?;
        let mut rook_letters: Vec<char> = Vec::new();
        let mut sides = Vec::new();
        for c in &white {
            let (Some(kf), Some(kt), Some(rf), Some(rt)) = (
                cell(c.king.0),
                cell(c.king.1),
                cell(c.rook.0),
                cell(c.rook.1),
            ) else {
                return Err("bad castling cell".into());
            };
            if kf != king_from || kt.rank != kf.rank || rf.rank != kf.rank || rt.rank != kf.rank {
                return Err(format!(
                    "castling {}: Fairy-Stockfish castles along one rank, the King from one cell",
                    c.right
                ));
            }
            let step = if rf.file > kf.file { 1 } else { -1 };
            if (kt.file - kf.file).signum() != step || rt.file != kt.file - step {
                return Err(format!(
                    "castling {}: Fairy-Stockfish's Rook ends beside the King, on the side it came from",
                    c.right
                ));
            }
            if !rook_letters.contains(&c.rook_letter) {
                rook_letters.push(c.rook_letter);
            }
            sides.push((step, kt.file, rf));
        }
        for c in spec.castling.iter().filter(|c| c.color == Color::Black) {
            let mirrored = white.iter().any(|wc| {
                wc.right.to_ascii_lowercase() == c.right
                    && [wc.king.0, wc.king.1, wc.rook.0, wc.rook.1]
                        .iter()
                        .zip([c.king.0, c.king.1, c.rook.0, c.rook.1])
                        .all(|(a, b)| mirror(topo, a) == topo.parse_square(b))
            });
            if !mirrored {
                return Err(format!(
                    "castling {}: Black's castling must mirror White's",
                    c.right
                ));
            }
        }
        // Fairy-Stockfish finds the castling piece from the board's edge inwards.
        let board_field = fields[0];
        let rows: Vec<&str> = board_field.split('/').collect();
        let row = rows
            .get(usize::from(ranks) - 1 - king_from.rank as usize)
            .copied()
            .unwrap_or("");
        let row_cells = expand_row(row);
        for &(step, dest, rf) in &sides {
            let edge: i16 = if step > 0 { i16::from(files) - 1 } else { 0 };
            let mut f = edge;
            while f != rf.file {
                if row_cells
                    .get(f as usize)
                    .is_some_and(|c| c.is_some_and(|c| rook_letters.contains(&c)))
                {
                    return Err(format!(
                        "castling with the piece on file {} while another castling piece stands nearer the edge cannot be expressed",
                        (b'a' + rf.file as u8) as char
                    ));
                }
                f -= step;
            }
            let key = if step > 0 {
                "castlingKingsideFile"
            } else {
                "castlingQueensideFile"
            };
            w(format!("{key} = {}", (b'a' + dest as u8) as char));
        }
        w("castling = true".into());
        w(format!("castlingRank = {}", king_from.rank + 1));
        if rook_letters.len() > 1 || !is_type(rook_letters[0], "rook") {
            w(format!("castlingRookPieces = {}", lower(&rook_letters)));
            w(format!("castlingRookPiece = {}", lower(&rook_letters)));
        }
    }

    // Game end.
    if !spec.move_rule_plies.is_multiple_of(2) {
        return Err("a move-count rule of an odd number of plies cannot be expressed".into());
    }
    w(format!("nMoveRule = {}", spec.move_rule_plies / 2));
    let pawn_only = spec.clock.reset_by.len() == 1 && is_type(spec.clock.reset_by[0], "pawn");
    if !pawn_only {
        let v = if spec.clock.reset_by.is_empty() {
            "-".to_string()
        } else {
            lower(spec.clock.reset_by)
        };
        w(format!("nMoveRuleTypes = {v}"));
    }
    if let Some(pr) = &spec.promotion {
        if spec.clock.promotion_resets {
            if let Some(c) = pr.pieces.iter().find(|c| !spec.clock.reset_by.contains(c)) {
                return Err(format!(
                    "a promotion of {c} resetting the move-count clock cannot be expressed (Fairy-Stockfish resets it on captures and moves of nMoveRuleTypes)"
                ));
            }
        }
    }
    w(format!("nFoldRule = {}", spec.repetition.occurrences));
    if spec.repetition.result != EndValue::Draw {
        w(format!("nFoldValue = {}", spec.repetition.result.name()));
    }
    w(format!("stalemateValue = {}", spec.stalemate.name()));
    ends(spec, &mut w);
    if spec.must_capture {
        w("mustCapture = true".into());
    }
    if spec.insufficient_material {
        // The dead positions the engine declares drawn cannot be won by either side when
        // the royal piece is a King: Fairy-Stockfish plays them out to the same draw.
        let royal_is_king = spec.pieces.iter().any(|p| p.royal && p.betza == "K");
        let minors_are_chess = spec.pieces.iter().all(|p| match p.letter {
            'N' => p.betza == "N",
            'B' => p.betza == "B",
            _ => true,
        });
        if !(royal_is_king && minors_are_chess) {
            return Err("the insufficient-material draw cannot be expressed here (Fairy-Stockfish has no such rule, and with these pieces such positions are not dead)".into());
        }
        w(
            "# insufficient_material: Fairy-Stockfish plays dead positions out to the same draw"
                .into(),
        );
    }
    Ok(out)
}

/// `r` where the zone is every cell of ranks `r..` for White and its rank mirror for Black
/// (Fairy-Stockfish's `promotionRank`).
fn rank_zone(topo: &Topology, zone: &[Vec<&'static str>; 2]) -> Option<i16> {
    let (files, ranks, _) = topo.dims();
    let ranks_of = |z: &[&str]| -> Option<Vec<i16>> {
        let mut rs: Vec<i16> = z
            .iter()
            .map(|s| topo.parse_square(s).map(|q| topo.coord(q).rank))
            .collect::<Option<_>>()?;
        rs.sort_unstable();
        Some(rs)
    };
    let w = ranks_of(&zone[0])?;
    let b = ranks_of(&zone[1])?;
    let lo = *w.first()?;
    let expect: Vec<i16> = (lo..i16::from(ranks))
        .flat_map(|r| std::iter::repeat_n(r, usize::from(files)))
        .collect();
    let expect_b: Vec<i16> = (0..i16::from(ranks) - lo)
        .flat_map(|r| std::iter::repeat_n(r, usize::from(files)))
        .collect();
    (w == expect && b == expect_b).then_some(lo + 1)
}

fn mirror(topo: &Topology, s: &str) -> Option<crate::Square> {
    topo.parse_square(s).map(|q| topo.rank_mirror(q))
}

/// A FEN row as one entry per file: the letter, or `None` for an empty cell.
fn expand_row(row: &str) -> Vec<Option<char>> {
    let mut out = Vec::new();
    let mut n = 0usize;
    for c in row.chars() {
        if let Some(d) = c.to_digit(10) {
            n = n * 10 + d as usize;
        } else {
            out.extend(std::iter::repeat_n(None, n));
            n = 0;
            out.push(Some(c.to_ascii_uppercase()));
        }
    }
    out.extend(std::iter::repeat_n(None, n));
    out
}

/// The flag, check-count and extinction rules (`crate::ends`), and the drops.
fn ends(spec: &VariantSpec, w: &mut impl FnMut(String)) {
    let end = &spec.end;
    if let Some(f) = &end.flag {
        // Without flagPiece any piece is a flag (Fairy-Stockfish's default).
        if let Some(l) = f.piece {
            w(format!("flagPiece = {}", l.to_ascii_lowercase()));
        }
        for (side, r) in ["White", "Black"].iter().zip(&f.region) {
            let v = if r.is_empty() {
                "-".to_string()
            } else {
                r.join(" ")
            };
            w(format!("flagRegion{side} = {v}"));
        }
        if f.count != 1 {
            w(format!("flagPieceCount = {}", f.count));
        }
        if f.blocked_win {
            w("flagPieceBlockedWin = true".into());
        }
    }
    if end.check_count.is_some() {
        w("checkCounting = true".into());
    }
    if let Some(d) = &spec.drops {
        w("pieceDrops = true".into());
        w("capturesToHand = true".into());
        if !d.checks {
            w("dropChecks = false".into());
        }
    }
    if let Some(x) = &end.extinction {
        w(format!("extinctionValue = {}", x.value.name()));
        let kinds: String = x.pieces.iter().map(|c| c.to_ascii_lowercase()).collect();
        w(format!("extinctionPieceTypes = {kinds}"));
        w(format!("extinctionPieceCount = {}", x.count));
        w(format!(
            "extinctionOpponentPieceCount = {}",
            x.opponent_count
        ));
    }
}
