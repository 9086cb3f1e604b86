//! The chess-family text format: FEN extended with holes.
//!
//! Ranks run from the top (Black's side) down, separated by `/`; each rank covers every file
//! of the bounding box. `*` is a cell that does not exist, a number is a run of empty existing
//! cells, a letter is a piece (upper case White). Then the side to move (`w`/`b`); in
//! [`FenStyle::Chess`] the castling and en passant fields; in a variant that counts checks,
//! optionally each side's checks still to give, `3+3` as Fairy-Stockfish writes it (default:
//! the variant's count); then optionally the halfmove clock and move number (defaults 0 and 1). [`Position::to_text`] writes every field, so
//! `parse(write(p)) == p` and `write(parse(s)) == s` for written strings.
//!
//! The one part of the format without an order is the castling field: it is a set of rights,
//! so its letters are read in any order (`qkQK` reads as `KQkq`; a repeated letter is an
//! error) and written in the variant's castling order (`KQkq` in chess, as FIDE FEN writes
//! it). The board is positional and the other fields are single values.

use crate::bitboard::Bitboard;
use crate::error::PositionError;
use crate::position::{Position, Variant};
use crate::rules::{FenStyle, NO_ROYAL};
use crate::variants::text::{read_rights, write_rights};
use crate::{Color, Piece, Square};

impl<V: Variant> Position<V> {
    /// Reads a position; the castling letters may come in any order (see the module doc).
    ///
    /// # Errors
    /// [`PositionError::Syntax`] with the field and column of the first problem, or
    /// [`PositionError::Setup`] for a well-formed but impossible position (no King, two Kings,
    /// the side not to move in check, a Pawn on its last rank, castling rights without the
    /// pieces).
    pub fn from_text(text: &str) -> Result<Position<V>, PositionError> {
        let rules = V::rules();
        let topo = &rules.spec.topology;
        let (files, ranks, _) = topo.dims();
        let mut pos = Position::<V>::empty();

        // Split into fields, remembering each field's starting column.
        let mut fields: Vec<(usize, &str)> = Vec::new();
        let mut start = None;
        for (i, ch) in text.char_indices() {
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    fields.push((s, &text[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            fields.push((s, &text[s..]));
        }
        let col = |byte: usize| text[..byte].chars().count() + 1;
        let end_col = text.chars().count() + 1;
        let Some(&(bstart, board)) = fields.first() else {
            return Err(PositionError::syntax("board", 1, "empty position text"));
        };
        // Pieces in hand follow the board in brackets, as in crazyhouse FEN.
        let (board, hand) = match board.find('[') {
            Some(i) => (&board[..i], Some((bstart + i, &board[i..]))),
            None => (board, None),
        };
        let mut last_piece: Option<Square> = None;

        // Board.
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != ranks as usize {
            return Err(PositionError::syntax(
                "board",
                col(bstart),
                format!("{} ranks given, the board has {ranks}", rows.len()),
            ));
        }
        let mut offset = bstart;
        for (ri, row) in rows.iter().enumerate() {
            let rank = i16::from(ranks) - 1 - ri as i16;
            let mut file: i16 = 0;
            let mut chars = row.char_indices().peekable();
            while let Some((ci, ch)) = chars.next() {
                let here = col(offset + ci);
                let cell = |file: i16| -> Option<Square> {
                    topo.square_at(crate::geometry::Coord {
                        file,
                        rank,
                        level: 0,
                    })
                };
                if ch.is_ascii_digit() {
                    let mut n = ch.to_digit(10).unwrap_or(0) as i64;
                    while let Some(&(_, d)) = chars.peek() {
                        if !d.is_ascii_digit() {
                            break;
                        }
                        n = n * 10 + d.to_digit(10).unwrap_or(0) as i64;
                        chars.next();
                        if n > files as i64 {
                            break;
                        }
                    }
                    if n == 0 {
                        return Err(PositionError::syntax(
                            "board",
                            here,
                            "empty run of length 0",
                        ));
                    }
                    for _ in 0..n {
                        match cell(file) {
                            Some(sq) if topo.exists(sq) => file += 1,
                            Some(sq) => {
                                return Err(PositionError::syntax(
                                    "board",
                                    here,
                                    format!("run of empty cells covers {}, which does not exist (write '*')", topo.square_name(sq)),
                                ))
                            }
                            None => {
                                return Err(PositionError::syntax(
                                    "board",
                                    here,
                                    format!("rank {} is longer than {files} files", rank + 1),
                                ))
                            }
                        }
                    }
                } else if ch == '*' {
                    match cell(file) {
                        Some(sq) if !topo.exists(sq) => file += 1,
                        Some(sq) => {
                            return Err(PositionError::syntax(
                                "board",
                                here,
                                format!(
                                    "'*' on {}, which is a cell of the board",
                                    topo.square_name(sq)
                                ),
                            ))
                        }
                        None => {
                            return Err(PositionError::syntax(
                                "board",
                                here,
                                format!("rank {} is longer than {files} files", rank + 1),
                            ))
                        }
                    }
                } else if let Some(role) = rules
                    .role_of_letter(ch)
                    .filter(|_| ch.is_ascii_alphabetic())
                {
                    let color = if ch.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    match cell(file) {
                        Some(sq) if topo.exists(sq) => {
                            pos.put(sq, Piece { color, role });
                            last_piece = Some(sq);
                            file += 1;
                            continue;
                        }
                        Some(sq) => {
                            return Err(PositionError::syntax(
                                "board",
                                here,
                                format!(
                                    "piece '{ch}' on {}, which does not exist",
                                    topo.square_name(sq)
                                ),
                            ))
                        }
                        None => {
                            return Err(PositionError::syntax(
                                "board",
                                here,
                                format!("rank {} is longer than {files} files", rank + 1),
                            ))
                        }
                    }
                } else if ch == '~' && rules.spec.drops.is_some() && last_piece.is_some() {
                    // A promoted piece, which goes back to hand unpromoted when captured.
                    pos.promoted.insert(last_piece.take().expect("checked"));
                    continue;
                } else {
                    return Err(PositionError::syntax(
                        "board",
                        here,
                        format!("unknown piece letter '{ch}' for {}", rules.spec.name),
                    ));
                }
                last_piece = None;
            }
            if file != i16::from(files) {
                return Err(PositionError::syntax(
                    "board",
                    col(offset + row.len()),
                    format!(
                        "rank {} covers {file} files, the board has {files}",
                        rank + 1
                    ),
                ));
            }
            offset += row.len() + 1;
        }

        if let Some((hstart, hand)) = hand {
            read_hand(&mut pos, hand, col(hstart))?;
        }

        // Side to move.
        let mut rest = fields[1..].iter().peekable();
        match rest.next() {
            Some(&(_, "w")) => pos.turn = Color::White,
            Some(&(_, "b")) => pos.turn = Color::Black,
            Some(&(s, other)) => {
                return Err(PositionError::syntax(
                    "side",
                    col(s),
                    format!("side to move must be 'w' or 'b', not {other:?}"),
                ))
            }
            None => {
                return Err(PositionError::syntax(
                    "side",
                    end_col,
                    "side to move missing",
                ))
            }
        }

        if rules.spec.fen_style == FenStyle::Chess {
            match rest.next() {
                Some(&(s, f)) => {
                    let unknown = |ch| format!("unknown castling right '{ch}'");
                    pos.castling = read_rights((col(s), f), "castling", rights::<V>(), unknown)?;
                }
                None => {
                    return Err(PositionError::syntax(
                        "castling",
                        end_col,
                        "castling field missing",
                    ))
                }
            }
            match rest.next() {
                Some(&(_, "-")) => {}
                Some(&(s, f)) => match topo.parse_square(f) {
                    Some(sq) if topo.exists(sq) => pos.ep = Some(sq),
                    _ => {
                        return Err(PositionError::syntax(
                            "en passant",
                            col(s),
                            format!("{f:?} is not a cell"),
                        ))
                    }
                },
                None => {
                    return Err(PositionError::syntax(
                        "en passant",
                        end_col,
                        "en passant field missing",
                    ))
                }
            }
        }
        if let Some(n) = rules.end.as_ref().and_then(|e| e.check_count) {
            pos.checks = [n; 2];
            if let Some(&&(s, f)) = rest.peek().filter(|(_, f)| f.contains('+')) {
                rest.next();
                pos.checks = read_checks(f).ok_or_else(|| {
                    PositionError::syntax(
                        "checks",
                        col(s),
                        format!(
                            "{f:?} is not each side's checks still to give, White's '+' Black's (0 to {})",
                            crate::ends::MAX_CHECKS
                        ),
                    )
                })?;
            }
        }
        let mut counter = |field: &'static str, default: u32| -> Result<u32, PositionError> {
            match rest.next() {
                None => Ok(default),
                Some(&(s, f)) => f.parse::<u32>().map_err(|_| {
                    PositionError::syntax(
                        field,
                        col(s),
                        format!("{f:?} is not a non-negative number"),
                    )
                }),
            }
        };
        pos.halfmove = counter("halfmove", 0)?;
        pos.fullmove = counter("fullmove", 1)?;
        if pos.fullmove == 0 {
            return Err(PositionError::syntax(
                "fullmove",
                end_col,
                "move number must be at least 1",
            ));
        }
        if let Some(&(s, extra)) = rest.next() {
            return Err(PositionError::syntax(
                "end",
                col(s),
                format!("unexpected extra field {extra:?}"),
            ));
        }
        pos.validate()?;
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Checks that a parsed position is one the rules can reach or at least play from.
    fn validate(&mut self) -> Result<(), PositionError> {
        let rules = V::rules();
        let topo = &rules.spec.topology;
        for c in Color::ALL.into_iter().filter(|_| rules.king != NO_ROYAL) {
            let kings = self.pieces(c, rules.king).count();
            let needed = u32::from(rules.royal[c.index()]);
            if kings != needed {
                let needs = if needed == 1 {
                    "needs exactly one"
                } else {
                    "needs none (it plays without one in this variant)"
                };
                return Err(PositionError::Setup(format!(
                    "{} has {kings} {}s, {needs}",
                    c.name(),
                    rules.spec.pieces[rules.king.index()].name
                )));
            }
        }
        let them = !self.turn;
        if let Some(k) = self.king(them) {
            if self.is_attacked(k, self.turn) {
                return Err(PositionError::Setup(format!(
                    "{} is in check but it is {}'s move",
                    them.name(),
                    self.turn.name()
                )));
            }
        }
        if let Some(p) = &rules.spec.promotion {
            if p.mandatory {
                for c in Color::ALL {
                    for r in p.pieces {
                        let role = rules.role_of_letter(*r).expect("promoting piece exists");
                        let stuck = self.pieces(c, role) & rules.promotion_zone[c.index()];
                        if let Some(sq) = stuck.lsb() {
                            return Err(PositionError::Setup(format!(
                                "{} {} on {}, where it must already have promoted",
                                c.name(),
                                rules.spec.pieces[role.index()].name,
                                topo.square_name(sq)
                            )));
                        }
                    }
                }
            }
        }
        if let Some((pawn, _)) = &rules.double_step {
            let first_rank = rules.spec.double_step.map_or([false; 2], |d| d.first_rank);
            for c in Color::ALL.into_iter().filter(|c| !first_rank[c.index()]) {
                let back = if c == Color::White {
                    0
                } else {
                    i16::from(topo.dims().1) - 1
                };
                if let Some(sq) = self
                    .pieces(c, *pawn)
                    .squares()
                    .find(|&s| topo.coord(s).rank == back)
                {
                    return Err(PositionError::Setup(format!(
                        "{} pawn on {}, its own first rank",
                        c.name(),
                        topo.square_name(sq)
                    )));
                }
            }
        }
        for (c, sp) in rules.castling.iter().zip(&rules.spec.castling) {
            if self.castling & c.bit != 0
                && (self.piece_at(c.king_from)
                    != Some(Piece {
                        color: c.color,
                        role: rules.king,
                    })
                    || self.piece_at(c.rook_from)
                        != Some(Piece {
                            color: c.color,
                            role: c.rook_role,
                        }))
            {
                return Err(PositionError::Setup(format!(
                    "castling right '{}' but the King or Rook is not on its cell",
                    sp.right
                )));
            }
        }
        if let Some(ep) = self.ep {
            let ok = rules.double_step.as_ref().is_some_and(|(pawn, _)| {
                let Some(victim) = self.ep_victim_cell(ep, them) else {
                    return false;
                };
                // The cell just past the double step's start rank (chess: rank 3 or 6).
                let rank_ok = rules.spec.double_step.is_some_and(|d| {
                    topo.coord(ep).rank
                        == d.ranks[them.index()] + if them == Color::White { 1 } else { -1 }
                });
                rules.en_passant
                    && rank_ok
                    && self.piece_at(ep).is_none()
                    && self.piece_at(victim)
                        == Some(Piece {
                            color: them,
                            role: *pawn,
                        })
            });
            if !ok {
                return Err(PositionError::Setup(format!(
                    "en passant cell {} without a pawn that just double-stepped past it",
                    topo.square_name(ep)
                )));
            }
            // Keep the cell only when a capture there is possible, as play_unchecked does.
            let (pawn, _) = rules.double_step.as_ref().expect("checked above");
            let capturers = rules.tables.leap_capturers_of(self.turn, *pawn, ep)
                & self.pieces(self.turn, *pawn);
            if capturers.is_empty() {
                self.ep = None;
            }
        }
        Ok(())
    }

    /// Writes the position in the variant's text format, every field included.
    pub fn to_text(&self) -> String {
        let rules = V::rules();
        let topo = &rules.spec.topology;
        let mut s = crate::variants::text::write_board(topo, Some('*'), |sq, s| {
            let Some(p) = self.piece_at(sq) else {
                return false;
            };
            s.push(rules.letter(p.color, p.role));
            if self.promoted.contains(sq) {
                s.push('~');
            }
            true
        });
        if rules.spec.drops.is_some() {
            s.push('[');
            for c in Color::ALL {
                for r in (0..rules.tables.num_roles()).rev() {
                    let role = crate::Role(r as u8);
                    for _ in 0..self.in_hand(c, role) {
                        s.push(rules.letter(c, role));
                    }
                }
            }
            s.push(']');
        }
        s.push(' ');
        s.push(self.turn.char());
        if rules.spec.fen_style == FenStyle::Chess {
            s.push(' ');
            s += &write_rights(self.castling, rights::<V>());
            s.push(' ');
            match self.ep {
                Some(sq) => s += &topo.square_name(sq),
                None => s.push('-'),
            }
        }
        if rules.end.as_ref().is_some_and(|e| e.check_count.is_some()) {
            s += &format!(" {}+{}", self.checks[0], self.checks[1]);
        }
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        s
    }
}

/// Reads the pieces in hand, `[QRBNPqrbnp]` (any order; `[]` for none), starting at column
/// `col`, into `pos`'s hands (its hash is computed afterwards).
fn read_hand<V: Variant>(
    pos: &mut Position<V>,
    hand: &str,
    col: usize,
) -> Result<(), PositionError> {
    let rules = V::rules();
    if rules.spec.drops.is_none() {
        return Err(PositionError::syntax(
            "hand",
            col,
            format!(
                "pieces in hand ('[...]') but {} has no drops",
                rules.spec.name
            ),
        ));
    }
    let Some(inner) = hand.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
        return Err(PositionError::syntax(
            "hand",
            col,
            "pieces in hand are written '[...]' right after the board",
        ));
    };
    let roles = rules.tables.num_roles();
    for (i, ch) in inner.chars().enumerate() {
        let here = col + 1 + i;
        let role = rules
            .role_of_letter(ch)
            .filter(|&r| ch.is_ascii_alphabetic() && r != rules.king)
            .ok_or_else(|| {
                PositionError::syntax(
                    "hand",
                    here,
                    format!("'{ch}' is no piece that can be in hand"),
                )
            })?;
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let n = &mut pos.hands.as_mut()[color.index() * roles + role.index()];
        if usize::from(*n) >= crate::zobrist::MAX_HAND {
            return Err(PositionError::syntax(
                "hand",
                here,
                format!(
                    "more than {} pieces of one kind in hand",
                    crate::zobrist::MAX_HAND
                ),
            ));
        }
        *n += 1;
    }
    Ok(())
}

/// A check-count field, `W+B` (each side's checks still to give, as Fairy-Stockfish writes
/// them), each at most [`crate::ends::MAX_CHECKS`].
fn read_checks(f: &str) -> Option<[u8; 2]> {
    let (w, b) = f.split_once('+')?;
    let n = |t: &str| {
        t.parse::<u8>()
            .ok()
            .filter(|&n| n <= crate::ends::MAX_CHECKS && t.bytes().all(|c| c.is_ascii_digit()))
    };
    Some([n(w)?, n(b)?])
}

/// The variant's castling rights: each one's letter and bit, in its order.
fn rights<V: Variant>() -> impl Iterator<Item = (char, u8)> + Clone {
    let rules = V::rules();
    let letters = rules.spec.castling.iter().map(|sp| sp.right);
    letters.zip(rules.castling.iter().map(|c| c.bit))
}
