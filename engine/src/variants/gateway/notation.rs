//! Gateway Chess's position text, move names and board diagram.
//!
//! # Position text
//!
//! `<v>|<w>|<x>|<y>|<z> <side> [<halfmove> <fullmove>]`:
//!
//! * five levels from `v` (top) to `z` (bottom), separated by `|`; each level lists ranks 10
//!   down to 1 separated by `/`; each rank lists its cells from file `a` to `d`, **skipping the
//!   missing cells**, so ranks 3 and 8 hold only files `b` and `c` (two cells);
//! * a piece is its letter, upper case for White: `P` Pawn, `R` Rook, `B` Bishop, `U` Unicorn,
//!   `Q` Queen, `D` Duchess, `G` Governor, `N` Knight, `S` Sexton, `J` Ninja, `C`
//!   Churchwarden, `M` Samurai, `O` Oberon, `E` Emperor, `K` a cell of the Quantum King (all
//!   four cells of its row are written `K`); a digit `1`–`4` is a run of empty cells;
//! * `side` is `w` or `b`; the halfmove clock and fullmove number default to `0` and `1`.
//!
//! The start position is [`START`]. [`Gateway::from_text`](crate::Game::from_text) also reads
//! the rules file's piece-list form, `W: Kx1, Bwa4. B: Ezb10. White to move.` (`K` + level +
//! rank for a Quantum King; Extreme 2D's headers `White:` and `Black:` are read too). Its
//! three sentences are labelled, so they are read in any order
//! (`B: Ezb10. W: Kx1. White to move.` too; the full stop may be left out after the last one),
//! each exactly once, and so are the pieces of a list; the compact form is positional and has
//! nothing unordered. Output is always the compact form, and it round-trips exactly.
//! Impossible positions are refused with [`PositionError::Setup`]: a side without exactly one
//! royal (one QK row or one Emperor), `K` cells that do not fill exactly one row, a Pawn on its
//! own promotion rank, more than 10 Pawns or 46 non-royal pieces on a side, or the side not to
//! move having a threatened QK cell or an attacked Emperor.
//!
//! # Move text
//!
//! * moves and captures: origin and destination cell, `xb3xb4`, `wb2vc4`;
//! * promotion: the move followed by the new piece's lower-case letter, `xc9xc10q`;
//! * Quantum King step: `K>` and the destination row (level letter and rank), `K>y2`;
//! * transformation: `T@` and the Emperor's cell, `T@xb1`.

use super::*;

impl Gateway {
    pub(super) fn read_text(text: &str) -> Result<Self, PositionError> {
        if text::is_piece_list(text) {
            Self::parse_list(text)
        } else {
            Self::parse_compact(text)
        }
    }

    pub(super) fn write_text(&self) -> String {
        let mut s = text::write_board(topology(), None, |sq, s| {
            let ch = if let Some(p) = Piece::from_code(self.board[sq.index()]) {
                p.color.cased(ROLES[p.role.index()].letter)
            } else if self.qk_cells(Color::White).contains(sq) {
                'K'
            } else if self.qk_cells(Color::Black).contains(sq) {
                'k'
            } else {
                return false;
            };
            s.push(ch);
            true
        });
        s.push(' ');
        s.push(self.turn.char());
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        s
    }

    pub(super) fn name_move(&self, m: Move) -> String {
        match m.kind() {
            MoveKind::QuantumStep => format!("K>{}", row_name(m.to().index() / FILES)),
            MoveKind::Transform => format!("T@{}", topology().square_name(m.to())),
            MoveKind::Promotion => {
                let letter = ROLES[m.role().index() % NROLES].letter;
                move_name(topology(), m) + &letter.to_ascii_lowercase().to_string()
            }
            _ => move_name(topology(), m),
        }
    }

    pub(super) fn draw(&self) -> crate::diagram::Diagram {
        let topo = &tables().topo;
        let mut d = crate::diagram::Diagram::board(
            topo,
            1.0,
            |l| {
                let name = ((b'v' + l as u8) as char).to_string();
                match l {
                    0 => name + " (top)",
                    l if l == LEVELS - 1 => name + " (bottom)",
                    _ => name,
                }
            },
            |_| None,
            |sq| {
                if let Some(p) = Piece::from_code(self.board[sq.index()]) {
                    return Some(crate::diagram::Occupant::piece(
                        p.color,
                        ROLES[p.role.index()].letter.to_string(),
                    ));
                }
                // The Quantum King fills its whole row: each of its four cells says so.
                Color::ALL
                    .into_iter()
                    .find(|&c| self.qk_cells(c).contains(sq))
                    .map(|c| crate::diagram::Occupant::piece(c, "QK"))
            },
        );
        d.legend.push((
            "#666",
            "gateway hole: files a and d of ranks 3 and 8".to_string(),
        ));
        d
    }
}

impl Gateway {
    /// Parses the compact position text.
    pub(super) fn parse_compact(text: &str) -> Result<Gateway, PositionError> {
        const NAMES: [&str; 4] = ["board", "side", "halfmove", "fullmove"];
        let fields = FORMAT.fields(text, &NAMES)?;
        let end = text.chars().count() + 1;
        match fields.len() {
            1 => return Err(PositionError::syntax("side", end, "missing side to move")),
            3 => {
                return Err(PositionError::syntax(
                    "fullmove",
                    end,
                    "missing fullmove number",
                ))
            }
            n if n > 4 => {
                return Err(PositionError::syntax(
                    "end",
                    fields[4].0,
                    "unexpected text after the fullmove number",
                ))
            }
            _ => {}
        }
        let mut p = Gateway::empty(Color::White);
        let mut qk_cells = [GatewayBb::EMPTY; 2];
        // A piece letter, or `K`/`k` for a cell of a Quantum King (`None`).
        let cells = FORMAT.read_board(fields[0], topology(), |chars, _| {
            let c = chars[0];
            if c.eq_ignore_ascii_case(&'k') {
                return Ok(((Color::of_case(c), None), 1));
            }
            crate::piece::read_letter(&ROLES, c)
                .map(|(color, role)| ((color, Some(role)), 1))
                .ok_or_else(|| Bad::At(0, format!("unexpected character {c:?}")))
        })?;
        for (sq, (color, role)) in cells {
            match role {
                Some(role) => p.put(sq.index(), color, role),
                None => qk_cells[color.index()].insert(sq),
            }
        }
        p.turn = FORMAT.read_side(fields[1])?;
        if fields.len() == 4 {
            let counter = Counter {
                plus: false,
                max_digits: 9,
                max: u32::MAX,
            };
            p.halfmove = counter.read(fields[2], NAMES[2], 0)?;
            p.fullmove = counter.read(fields[3], NAMES[3], 1)?;
        }
        for c in Color::ALL {
            let cells = qk_cells[c.index()];
            if cells.is_empty() {
                continue;
            }
            let row = cells.lsb().map_or(0, |s| s.index() / FILES);
            if tables().rows[row] != cells {
                return Err(PositionError::Setup(format!(
                    "the {} Quantum King cells do not fill exactly one row",
                    c.name()
                )));
            }
            p.set_qk(c, row as u8);
        }
        p.finish()
    }

    /// Parses the rules file's piece-list form: the `W:` list, the `B:` list and the side to
    /// move in any order, each exactly once, and the pieces of a list in any order.
    /// Parenthesised remarks, as in "W: Kx1 (no other White piece).", are ignored.
    pub(super) fn parse_list(text: &str) -> Result<Gateway, PositionError> {
        let list = text::read_piece_list(text, Punctuation::Strict)?;
        let mut p = Gateway::empty(list.turn);
        let err = |col: usize, msg: String| PositionError::syntax("pieces", col, msg);
        for (c, col, item) in list.items {
            let letter = item.chars().next().unwrap_or(' ');
            let rest = &item[letter.len_utf8()..];
            if letter == 'K' {
                let row = topology()
                    .parse_row(rest)
                    .map(|(rank, level)| level as usize * RANKS + rank as usize)
                    .filter(|&row| tables().rows[row].any())
                    .ok_or_else(|| err(col + 1, format!("bad Quantum King row {rest:?}")))?;
                if p.has_quantum_king(c) {
                    return Err(err(col, "two Quantum Kings".into()));
                }
                p.set_qk(c, row as u8);
            } else {
                let role = role_of_letter(letter)
                    .filter(|_| letter.is_ascii_uppercase())
                    .ok_or_else(|| err(col, format!("unknown piece letter {letter:?}")))?;
                let sq = topology()
                    .parse_name(rest)
                    .filter(|&s| topology().exists(s))
                    .map(Square::index)
                    .ok_or_else(|| err(col + 1, format!("bad cell {rest:?}")))?;
                if p.board[sq] != 0 {
                    return Err(err(col + 1, format!("two pieces on {rest}")));
                }
                p.put(sq, c, role);
            }
        }
        for c in Color::ALL {
            if p.qk_cells(c) & p.by_color[0] | p.qk_cells(c) & p.by_color[1] != GatewayBb::EMPTY {
                return Err(PositionError::Setup(format!(
                    "a piece stands on the {} Quantum King's row",
                    c.name()
                )));
            }
        }
        if (p.qk_cells(Color::White) & p.qk_cells(Color::Black)).any() {
            return Err(PositionError::Setup("the Quantum Kings overlap".into()));
        }
        p.finish()
    }

    /// Checks the whole position and sets the hash.
    pub(super) fn finish(mut self) -> Result<Gateway, PositionError> {
        for c in Color::ALL {
            let emperors = self.pieces(c, EMPEROR).count();
            let royals = emperors + self.has_quantum_king(c) as u32;
            if royals != 1 {
                return Err(PositionError::Setup(format!(
                    "{} must have exactly one royal (a Quantum King or an Emperor), has {royals}",
                    c.name()
                )));
            }
            let pawns = self.pieces(c, PAWN);
            if pawns.count() > 10 {
                return Err(PositionError::Setup(format!(
                    "{} has more than 10 Pawns",
                    c.name()
                )));
            }
            if self.by_color[c.index()].count() - emperors > 46 {
                return Err(PositionError::Setup(format!(
                    "{} has more than 46 non-royal pieces",
                    c.name()
                )));
            }
            let last = if c == Color::White { RANKS - 1 } else { 0 };
            if let Some(s) = pawns.squares().find(|s| coords(s.index()).1 == last) {
                return Err(PositionError::Setup(format!(
                    "unpromoted Pawn on {}",
                    topology().square_name(s)
                )));
            }
        }
        self.hash = self.compute_hash();
        if self.royal_attacked(!self.turn) {
            return Err(PositionError::Setup(format!(
                "{}, not to move, has its royal under attack",
                (!self.turn).name()
            )));
        }
        Ok(self)
    }
}

/// The name of a Quantum King's row (level letter and rank, `x1`).
pub(super) fn row_name(row: usize) -> String {
    topology().row_name((row % RANKS) as i16, (row / RANKS) as i16)
}

pub(super) fn role_of_letter(c: char) -> Option<usize> {
    crate::piece::index_of_letter(&ROLES, c)
}
