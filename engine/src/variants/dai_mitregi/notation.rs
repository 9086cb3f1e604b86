//! Dai Mitregi's position text, move names and board diagram.
//!
//! Position text: ranks 16 to 1 separated by `/`, files a to p, digits for runs of empty cells
//! (one or two digits), `+X` for a promoted X; then the side to move (`w` or `b`); then the
//! hands, `-` when both are empty, otherwise `[..]`, one letter per piece, upper case White's
//! and lower case Black's, e.g. `[BHZEbn]`. The hands are multisets, so the letters are read in
//! any order, the colours mixed (`[ZHBEbn]`, `[nbZHBE]`); they are written in one canonical
//! order, White's first, then Black's, each in the order of [`ROLES`]. Nothing else in the
//! text is unordered: the board is positional and the side a single letter.
//!
//! Move text: `from` and `to` cell names (`e4e5`), `+` appended for a promotion (`d13c15+`),
//! drops as the upper-case letter, `*` and the cell (`N*e5`), for either side.

use super::*;

impl<const STEPPING: bool> DaiMitregiPos<STEPPING> {
    /// Reads the position text (see the module documentation; the hands in any order).
    ///
    /// # Errors
    /// A located syntax error, or a setup error (no or two royal pieces per side, an
    /// unpromoted piece on a cell from which it could never move).
    pub(super) fn read_text(text: &str) -> Result<Self, PositionError> {
        const NAMES: [&str; 3] = ["board", "side", "hands"];
        let fields = FORMAT.fields(text, &NAMES)?;
        let syn = |field: &'static str, col: usize, m: &str| PositionError::syntax(field, col, m);
        let mut board = [0u8; NSQ];
        let cells = FORMAT.read_board(fields[0], &tables().topo, |chars, _| {
            let promo = chars[0] == '+';
            let Some(&l) = chars.get(usize::from(promo)) else {
                return Err(Bad::At(1, "'+' without a piece".into()));
            };
            let (color, r) = read_letter(&ROLES, l)
                .ok_or_else(|| Bad::At(usize::from(promo), format!("unknown piece '{l}'")))?;
            Ok((code(color, r, promo), 1 + usize::from(promo)))
        })?;
        for (sq, c) in cells {
            board[sq.index()] = c;
        }
        // The board's problems first, then the missing or extra fields, left to right.
        let end = text.chars().count() + 1;
        match fields.len() {
            1 => return Err(syn("board", end, "expected a space after the board")),
            2 => return Err(syn("side", end, "expected a space after the side to move")),
            3 => {}
            _ => return Err(syn("hands", fields[3].0, "unexpected text after the hands")),
        }
        let turn = FORMAT.read_side(fields[1])?;
        let mut hands = [[0u8; NROLES]; 2];
        let (col, h) = fields[2];
        if h != "-" {
            let syn = |k: usize, m: &str| PositionError::syntax("hands", col + k, m);
            let Some(listed) = h.strip_prefix('[') else {
                return Err(syn(0, "expected '-' or '['"));
            };
            let Some(inner) = listed.strip_suffix(']') else {
                return Err(syn(h.chars().count(), "unterminated hand list"));
            };
            if inner.is_empty() {
                return Err(syn(1, "empty hands are written '-'"));
            }
            for (k, l) in inner.chars().enumerate() {
                let Some((c, r)) = read_letter(&ROLES, l) else {
                    return Err(syn(k + 1, &format!("unknown piece '{l}'")));
                };
                if r == KING {
                    return Err(syn(k + 1, "a King cannot be in hand"));
                }
                if hands[c.index()][r] as usize >= MAX_HAND {
                    return Err(syn(k + 1, "too many pieces in hand"));
                }
                hands[c.index()][r] += 1;
            }
        }
        let mut kings = [None; 2];
        let form = &tables().forms[STEPPING as usize];
        for (sq, &c) in board.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let color = color_of(c);
            if role_of(c) == KING {
                if kings[color.index()].is_some() {
                    return Err(PositionError::Setup(format!(
                        "{} has two royal pieces",
                        color.name()
                    )));
                }
                kings[color.index()] = Some(sq as u8);
            }
            if form.dead(color, class_of(c), sq) {
                return Err(PositionError::Setup(format!(
                    "{} {} on {} could never move",
                    color.name(),
                    ROLES[role_of(c)].name,
                    tables().topo.square_name(Square(sq as u16))
                )));
            }
        }
        for (r, d) in ROLES.iter().enumerate().skip(1) {
            let on_board = board.iter().filter(|&&c| c != 0 && role_of(c) == r).count();
            if on_board + (hands[0][r] + hands[1][r]) as usize > MAX_HAND {
                return Err(PositionError::Setup(format!(
                    "more than {MAX_HAND} pieces of kind {}",
                    d.name
                )));
            }
        }
        let (Some(wk), Some(bk)) = (kings[0], kings[1]) else {
            return Err(PositionError::Setup(
                "each side needs one King or Grandpasha".into(),
            ));
        };
        let mut occupied = [DaiBb::EMPTY; 2];
        for (sq, &c) in board.iter().enumerate() {
            if c != 0 {
                occupied[color_of(c).index()].insert(Square(sq as u16));
            }
        }
        let mut p = DaiMitregiPos {
            board,
            occupied,
            hands,
            kings: [wk, bk],
            counts: [[0; NCLASSES]; 2],
            turn,
            hash: 0,
            plies: 0,
        };
        p.hash = p.full_hash();
        p.counts = p.count_material();
        // The side not to move may be in check (the rules file's T9 is such a position):
        // Kings are never captured, so move generation simply never targets a royal piece.
        Ok(p)
    }

    /// Writes the position text (see the module documentation).
    pub(super) fn write_text(&self) -> String {
        let mut s = text::write_board(&tables().topo, None, |sq, s| {
            let c = self.board[sq.index()];
            if c == 0 {
                return false;
            }
            if promoted(c) {
                s.push('+');
            }
            s.push(color_of(c).cased(ROLES[role_of(c)].letter));
            true
        });
        s.push(' ');
        s.push(self.turn.char());
        s.push(' ');
        if self.hands.iter().all(|h| h.iter().all(|&n| n == 0)) {
            s.push('-');
        } else {
            s.push('[');
            for color in Color::ALL {
                for (r, d) in ROLES.iter().enumerate() {
                    for _ in 0..self.hands[color.index()][r] {
                        s.push(color.cased(d.letter));
                    }
                }
            }
            s.push(']');
        }
        s
    }

    pub(super) fn name_move(&self, m: Move) -> String {
        match m.kind() {
            MoveKind::Drop => format!(
                "{}*{}",
                ROLES[m.role().index() % NROLES].letter,
                tables().topo.square_name(m.to())
            ),
            MoveKind::Promotion => move_name(&tables().topo, m) + "+",
            _ => move_name(&tables().topo, m),
        }
    }

    pub(super) fn draw(&self) -> crate::diagram::Diagram {
        use crate::diagram::{Diagram, Occupant};
        // The camps (4 ranks each side, the enemy's promotion zone) are tinted.
        let topo = crate::geometry::Topology::rect(FILES as u8, RANKS as u8);
        let (camp_dark, camp_light) = ("#a3a07a", "#e6e3c0");
        let mut d = Diagram::board(
            &topo,
            2.2,
            |_| String::new(),
            |sq| {
                let (f, r) = (sq.index() % FILES, sq.index() / FILES);
                (in_zone(Color::White, sq.index()) || in_zone(Color::Black, sq.index())).then_some(
                    if (f + r) % 2 == 0 {
                        camp_dark
                    } else {
                        camp_light
                    },
                )
            },
            |sq| {
                let c = self.board[sq.index()];
                (c != 0).then(|| {
                    let mut text = String::new();
                    if promoted(c) {
                        text.push('+');
                    }
                    text.push(ROLES[role_of(c)].letter);
                    Occupant::piece(color_of(c), text)
                })
            },
        );
        // Both hands: one cell per droppable role (the King is never in hand), the count
        // under the letter.
        for (color, y) in [(Color::Black, 0.8), (Color::White, 19.9)] {
            let cells = ROLES
                .iter()
                .enumerate()
                .skip(1)
                .map(|(r, def)| {
                    let n = self.hands[color.index()][r];
                    let occupant = (n > 0).then(|| Occupant {
                        color: Some(color),
                        text: def.letter.to_string(),
                        sub: format!("×{n}"),
                    });
                    (format!("{} hand: {}", color.name(), def.name), occupant)
                })
                .collect();
            let caption = format!("{} hand", color.name());
            d.side_row(1.0, y, &caption, cells);
        }
        d.legend.push((
            camp_light,
            "camps: 4 ranks each side (the promotion zones)".to_string(),
        ));
        d.legend.push((
            crate::diagram::SIDE,
            "pieces in hand, with their count; + promoted".to_string(),
        ));
        d
    }
}
