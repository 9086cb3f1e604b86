//! The setup and the castling moves checked against the board and the pieces.

use super::doc::{leak, letter, CastlingDoc, Ctx, Line, PieceM};
use super::VariantFileError;
use crate::geometry::{Coord, Topology};
use crate::rules::CastlingSpec;
use crate::Color;
use toml::Spanned;

/// Whether the setup's board field fits the board: one row per rank, each covering every
/// file, `*` exactly on the holes, only known letters, at most one royal piece per side (a
/// side with none plays without one: Horde's White).
/// The board field of a setup without what the position text reads itself: the hands
/// (`[...]`) and the promoted marks (`~`) of a variant with drops.
fn cells_of(start: &str) -> String {
    let board = start.split_whitespace().next().unwrap_or("");
    let squares = board.split('[').next().unwrap_or_default();
    squares.chars().filter(|&c| c != '~').collect()
}

pub(super) fn check_setup(
    ctx: &Ctx,
    topo: &Topology,
    pieces: &[PieceM],
    start: &str,
    line: Line,
) -> Result<(), VariantFileError> {
    let (files, ranks, _) = topo.dims();
    let err = |m: String| ctx.err(line, "setup", m);
    let board = cells_of(start);
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != ranks as usize {
        return Err(err(format!(
            "{} ranks in the setup, the board has {ranks}",
            rows.len()
        )));
    }
    let royal = pieces.iter().find(|p| p.royal).map(|p| p.letter);
    let mut royals = [0; 2];
    for (ri, row) in rows.iter().enumerate() {
        let rank = i16::from(ranks) - 1 - ri as i16;
        let mut file: i32 = 0;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            let cell = |file: i32| {
                topo.square_at(Coord {
                    file: i16::try_from(file).ok()?,
                    rank,
                    level: 0,
                })
            };
            if ch.is_ascii_digit() {
                let mut n = ch.to_digit(10).unwrap_or(0) as i32;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    // Saturating: a run of any length is only too long, never an overflow.
                    n = n.saturating_mul(10).saturating_add(d as i32);
                    chars.next();
                }
                let covered = file.saturating_add(n);
                if covered > i32::from(files) {
                    let covered = match covered {
                        i32::MAX => format!("more than {files}"),
                        c => c.to_string(),
                    };
                    return Err(err(format!(
                        "rank {} covers {covered} files, the board has {files}",
                        rank + 1
                    )));
                }
                for k in 0..n {
                    if cell(file + k).is_some_and(|s| !topo.exists(s)) {
                        return Err(err(format!(
                            "rank {} covers the hole {} with empty cells; write '*' there",
                            rank + 1,
                            topo.square_name(cell(file + k).expect("exists"))
                        )));
                    }
                }
                file += n;
                continue;
            }
            let Some(sq) = cell(file).filter(|_| file < files as i32) else {
                return Err(err(format!(
                    "rank {} has more than {files} cells",
                    rank + 1
                )));
            };
            if ch == '*' {
                if topo.exists(sq) {
                    return Err(err(format!(
                        "'*' on {}, which is a cell of the board (holes: [board] holes)",
                        topo.square_name(sq)
                    )));
                }
            } else {
                if !topo.exists(sq) {
                    return Err(err(format!(
                        "{ch} on {}, which is a hole",
                        topo.square_name(sq)
                    )));
                }
                let up = ch.to_ascii_uppercase();
                if !pieces.iter().any(|p| p.letter == up) {
                    return Err(err(format!(
                        "unknown piece letter {ch:?} on {}",
                        topo.square_name(sq)
                    )));
                }
                if Some(up) == royal {
                    royals[usize::from(ch.is_ascii_lowercase())] += 1;
                }
            }
            file += 1;
        }
        if file != files as i32 {
            return Err(err(format!(
                "rank {} covers {file} files, the board has {files}",
                rank + 1
            )));
        }
    }
    for (c, n) in ["White", "Black"].iter().zip(royals) {
        if n > 1 {
            return Err(err(format!(
                "{c} has {n} royal pieces ({}) in the setup; at most one is supported",
                royal.unwrap_or('?')
            )));
        }
    }
    Ok(())
}

/// The setup's letter on `cell` (the setup has passed [`check_setup`]).
pub(super) fn piece_on(topology: &Topology, start: &str, cell: &str) -> Option<char> {
    let (_, ranks, _) = topology.dims();
    let sq = topology.parse_square(cell)?;
    let c = topology.coord(sq);
    let board = cells_of(start);
    let row = board
        .split('/')
        .nth((i16::from(ranks) - 1 - c.rank) as usize)?;
    let mut file: i16 = 0;
    let mut chars = row.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch.is_ascii_digit() {
            // check_setup has bounded every run by the board's width.
            let mut n = ch.to_digit(10)? as i16;
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                n = n * 10 + d as i16;
                chars.next();
            }
            file += n;
        } else {
            if file == c.file {
                return Some(ch);
            }
            file += 1;
        }
    }
    None
}

/// White's and Black's castling moves of a `castling` list, in FEN order (K, Q, k, q):
/// cells on one rank, at most one each way, Black's the rank mirror of White's.
pub(super) fn castling(
    ctx: &Ctx,
    topology: &Topology,
    start: &str,
    list: &[Spanned<CastlingDoc>],
    has: &dyn Fn(char) -> bool,
) -> Result<Vec<CastlingSpec>, VariantFileError> {
    let (_, ranks, _) = topology.dims();
    let mut out = Vec::new();
    let mut dirs = Vec::new();
    for (i, c) in list.iter().enumerate() {
        let cl = ctx.at(c.span());
        let f = format!("rules.castling[{i}]");
        let c = c.get_ref();
        for (key, cells) in [("king", &c.king), ("rook", &c.rook)] {
            if cells.len() != 2 {
                let n = cells.len();
                let s = if n == 1 { "" } else { "s" };
                let m = format!("{n} cell{s}; give two, from and to (`[\"e1\", \"g1\"]`)");
                return Err(ctx.err(cl, &format!("{f}.{key}"), m));
            }
        }
        let mut sq = Vec::new();
        for n in c.king.iter().chain(&c.rook) {
            match topology.parse_square(n) {
                Some(s) if topology.exists(s) => sq.push(s),
                _ => return Err(ctx.err(cl, &f, format!("no cell {n:?} on this board"))),
            }
        }
        let co: Vec<Coord> = sq.iter().map(|&s| topology.coord(s)).collect();
        if co.iter().any(|c| c.rank != co[0].rank) {
            return Err(ctx.err(
                cl,
                &f,
                "the King's and the Rook's cells must be on one rank",
            ));
        }
        let rook_letter = match &c.piece {
            Some(p) => letter(ctx, cl, &format!("{f}.piece"), p)?,
            None => match piece_on(topology, start, &c.rook[0]) {
                Some(ch) if ch.is_ascii_uppercase() => ch,
                _ => {
                    return Err(ctx.err(
                        cl,
                        &f,
                        format!(
                            "no White piece on {} in the setup; name it with `piece`",
                            c.rook[0]
                        ),
                    ))
                }
            },
        };
        if !has(rook_letter) {
            return Err(ctx.err(cl, &f, format!("no piece with letter {rook_letter}")));
        }
        let kingside = co[1].file > co[0].file;
        if dirs.contains(&kingside) || co[1].file == co[0].file {
            return Err(ctx.err(
                cl,
                &f,
                "at most one castling each way (the King moving towards higher files: K, lower: Q)",
            ));
        }
        dirs.push(kingside);
        let m = |s: &str| {
            let q = topology.parse_square(s).expect("checked");
            let mut c = topology.coord(q);
            c.rank = i16::from(ranks) - 1 - c.rank;
            topology.square_at(c).filter(|&x| topology.exists(x))
        };
        let mut black = Vec::new();
        for n in c.king.iter().chain(&c.rook) {
            match m(n) {
                Some(s) => black.push(leak(topology.square_name(s))),
                None => return Err(ctx.err(cl, &f, format!("Black's mirror of {n} is no cell"))),
            }
        }
        let w = |s: &String| leak(s.clone());
        out.push((
            kingside,
            CastlingSpec {
                right: if kingside { 'K' } else { 'Q' },
                color: Color::White,
                king: (w(&c.king[0]), w(&c.king[1])),
                rook: (w(&c.rook[0]), w(&c.rook[1])),
                rook_letter,
            },
            CastlingSpec {
                right: if kingside { 'k' } else { 'q' },
                color: Color::Black,
                king: (black[0], black[1]),
                rook: (black[2], black[3]),
                rook_letter,
            },
        ));
    }
    // FEN order: K, Q, k, q.
    out.sort_by_key(|(k, _, _)| !k);
    let mut v: Vec<CastlingSpec> = out.iter().map(|(_, w, _)| *w).collect();
    v.extend(out.iter().map(|(_, _, b)| *b));
    Ok(v)
}
