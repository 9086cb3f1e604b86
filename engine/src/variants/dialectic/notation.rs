//! Dialectic Chess's position text, move names and board diagram.
//!
//! # Text format
//! Orthochess FEN (six fields, `H/h` Philosopher, `G/g` Great Philosopher), then a seventh
//! field `TxyAxy` with the token cells, then an optional eighth field `V` followed by
//! comma-separated four-digit states `TxTyAxAy`: the visited states other than the current
//! one (absent: only the current state). The en passant field is kept (and hashed) only when
//! a pawn of the side to move stands beside the pawn that passed, a cheap stand-in for "an en
//! passant capture is possible" (Game end 4); a field without such a pawn reads as `-`. Start:
//! `rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21`.
//!
//! What the format leaves unordered is read in any order and written in one canonical order,
//! so a written text round-trips exactly: the castling letters (a set; written `KQkq` order,
//! a repeated letter is an error), the two labelled tokens (`AxyTxy` reads as `TxyAxy`;
//! written Thesis first, and each label must occur once), and the visited states (a set;
//! written in ascending internal state number `9 * (Tx + 3 Ty) + (Ax + 3 Ay)`, a repeated
//! state or the current one is an error).
//!
//! # Move notation
//! Board moves in coordinates: `e2e4`, `b7b8q` (promotion letters `q r b h`), castling as the
//! King's move (`e1g1`). Token moves: `Txy` (Thesis to cell (x,y)), `Axy` (Antithesis),
//! `Sxy` (Synthesis, Hegelian only).

use super::*;

impl<const HEGELIAN: bool> DialecticPos<HEGELIAN> {
    /// Reads a position text (see the module doc): the castling letters, the two tokens and
    /// the visited states in any order.
    ///
    /// # Errors
    /// A located syntax error or an impossible position.
    pub(super) fn read_text(text: &str) -> Result<Self, PositionError> {
        const NAMES: [&str; 8] = [
            "board",
            "side",
            "castling",
            "en passant",
            "halfmove",
            "fullmove",
            "tokens",
            "visited",
        ];
        let fields = FORMAT.fields(text, &NAMES)?;
        if fields.len() < 7 || fields.len() > 8 {
            let n = fields.len().min(7);
            return Err(PositionError::syntax(
                NAMES[n],
                text.chars().count() + 1,
                format!("expected 7 or 8 fields, found {}", fields.len()),
            ));
        }
        let col = |k: usize, off: usize| fields[k].0 + off;
        let mut p = DialecticPos::<HEGELIAN> {
            board: [0; 64],
            occ: [0; 2],
            kings: [64; 2],
            turn: Color::White,
            castling: 0,
            ep: NO_EP,
            thesis: 0,
            anti: 0,
            visited: 0,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        };
        let cells = FORMAT.read_board(fields[0], topology(), |chars, _| {
            crate::piece::read_letter(&PIECES, chars[0])
                .map(|piece| (piece, 1))
                .ok_or_else(|| Bad::At(0, format!("unknown piece letter {:?}", chars[0])))
        })?;
        for (sq, (color, role)) in cells {
            let (sq, role) = (sq.0 as u8, role as u8);
            p.board[sq as usize] = code(color, role);
            p.occ[color.index()] |= 1 << sq;
            if role == KING {
                if p.kings[color.index()] != 64 {
                    return Err(PositionError::Setup("more than one King of a side".into()));
                }
                p.kings[color.index()] = sq;
            }
        }
        if p.kings.contains(&64) {
            return Err(PositionError::Setup(
                "each side needs exactly one King".into(),
            ));
        }
        for s in (0..8).chain(56..64) {
            if p.board[s] == code(Color::White, PAWN) || p.board[s] == code(Color::Black, PAWN) {
                return Err(PositionError::Setup(
                    "pawn on the first or last rank".into(),
                ));
            }
        }
        p.turn = FORMAT.read_side(fields[1])?;
        let unknown = |_| "expected KQkq or -".to_string();
        p.castling = text::read_rights(fields[2], "castling", RIGHTS.into_iter(), unknown)?;
        for (bit, k, r) in [(1u8, 4usize, 7usize), (2, 4, 0), (4, 60, 63), (8, 60, 56)] {
            let c = if bit < 4 { Color::White } else { Color::Black };
            if p.castling & bit != 0 && (p.board[k] != code(c, KING) || p.board[r] != code(c, ROOK))
            {
                return Err(PositionError::Setup(
                    "castling right without King and Rook at home".into(),
                ));
            }
        }
        if fields[3].1 != "-" {
            let want = if p.turn == Color::White { 5 } else { 2 };
            let Some(ep) = topology()
                .parse_name(fields[3].1)
                .filter(|&sq| topology().coord(sq).rank == want)
                .map(|sq| sq.0 as u8)
            else {
                return Err(PositionError::syntax(
                    "en passant",
                    col(3, 0),
                    "bad en passant square",
                ));
            };
            let pawn = ep_victim(ep, p.turn);
            if p.board[pawn as usize] != code(!p.turn, PAWN) || p.board[ep as usize] != 0 {
                return Err(PositionError::Setup(
                    "en passant square without the pawn that passed".into(),
                ));
            }
            if p.ep_capturable(ep, p.turn) {
                p.ep = ep;
            }
        }
        // Rust's own number syntax (a `+` allowed), below a million.
        let counter = Counter {
            plus: true,
            max_digits: usize::MAX,
            max: 999_999,
        };
        p.halfmove = counter.read(fields[4], NAMES[4], 0)?;
        p.fullmove = counter.read(fields[5], NAMES[5], 1)?;
        let cell = |b: u8, c: u8| -> Option<u8> {
            if (b'0'..=b'2').contains(&b) && (b'0'..=b'2').contains(&c) {
                Some((b - b'0') + 3 * (c - b'0'))
            } else {
                None
            }
        };
        // The two tokens are labelled, so either may come first: `TxyAxy` or `AxyTxy`.
        let tk = fields[6].1.as_bytes();
        let (t_at, a_at) = match (tk.len(), tk.first(), tk.get(3)) {
            (6, Some(b'T'), Some(b'A')) => (1, 4),
            (6, Some(b'A'), Some(b'T')) => (4, 1),
            _ => {
                return Err(PositionError::syntax(
                    "tokens",
                    col(6, 0),
                    "expected TxyAxy (or AxyTxy)",
                ))
            }
        };
        let (Some(th), Some(an)) = (cell(tk[t_at], tk[t_at + 1]), cell(tk[a_at], tk[a_at + 1]))
        else {
            return Err(PositionError::syntax(
                "tokens",
                col(6, 1),
                "token cell digits must be 0..2",
            ));
        };
        if !HEGELIAN && th == an {
            return Err(PositionError::Setup(
                "tokens share a cell in the basic game".into(),
            ));
        }
        p.thesis = th;
        p.anti = an;
        p.visited = 1u128 << p.state();
        if let Some(&(_, v)) = fields.get(7) {
            let b = v.as_bytes();
            if b.first() != Some(&b'V') || b.len() < 5 || (b.len() - 1) % 5 != 4 {
                return Err(PositionError::syntax(
                    "visited",
                    col(7, 0),
                    "expected V then TxTyAxAy,...",
                ));
            }
            for (k, chunk) in b[1..].split(|&c| c == b',').enumerate() {
                let off = 1 + 5 * k;
                let st = match chunk {
                    [a, bb, c, d] => match (cell(*a, *bb), cell(*c, *d)) {
                        (Some(t), Some(a)) if HEGELIAN || t != a => 9 * t as u32 + a as u32,
                        _ => {
                            return Err(PositionError::syntax("visited", col(7, off), "bad state"))
                        }
                    },
                    _ => {
                        return Err(PositionError::syntax(
                            "visited",
                            col(7, off),
                            "state needs 4 digits",
                        ))
                    }
                };
                // The format sets no order: any order is read, one canonical order written.
                if st == p.state() || p.visited & (1u128 << st) != 0 {
                    return Err(PositionError::syntax(
                        "visited",
                        col(7, off),
                        "states must be distinct and not the current one",
                    ));
                }
                p.visited |= 1u128 << st;
            }
        }
        if p.king_attacked(!p.turn) {
            return Err(PositionError::Setup(
                "the side not to move is in check".into(),
            ));
        }
        p.hash = p.full_hash();
        Ok(p)
    }

    /// The position text (see the module doc).
    pub(super) fn write_text(&self) -> String {
        let mut s = text::write_board(topology(), None, |sq, s| {
            let c = self.board[sq.index()];
            if c == 0 {
                return false;
            }
            s.push(color_of(c).cased(LETTERS[((c - 1) >> 1) as usize]));
            true
        });
        s.push_str(if self.turn == Color::White {
            " w "
        } else {
            " b "
        });
        s += &text::write_rights(self.castling, RIGHTS.into_iter());
        s.push(' ');
        if self.ep == NO_EP {
            s.push('-');
        } else {
            s.push_str(&topology().square_name(Square(self.ep.into())));
        }
        let cell = |c: u8| format!("{}{}", c % 3, c / 3);
        s.push_str(&format!(
            " {} {} T{}A{}",
            self.halfmove,
            self.fullmove,
            cell(self.thesis),
            cell(self.anti)
        ));
        let others = self.visited & !(1u128 << self.state());
        if others != 0 {
            let list: Vec<String> = (0..81u8)
                .filter(|i| others & (1u128 << i) != 0)
                .map(|i| format!("{}{}", cell(i / 9), cell(i % 9)))
                .collect();
            s.push_str(" V");
            s.push_str(&list.join(","));
        }
        s
    }

    pub(super) fn name_move(&self, m: Move) -> String {
        let cell = m.to().0;
        match m.kind() {
            MoveKind::ThesisStep => format!("T{}{}", cell % 3, cell / 3),
            MoveKind::AntithesisStep => format!("A{}{}", cell % 3, cell / 3),
            MoveKind::SynthesisStep => format!("S{}{}", cell % 3, cell / 3),
            k => {
                let mut s = move_name(topology(), m);
                if k == MoveKind::Promotion {
                    s.push(LETTERS[m.role().index()].to_ascii_lowercase());
                }
                s
            }
        }
    }

    pub(super) fn draw(&self) -> crate::diagram::Diagram {
        use crate::diagram::{Diagram, DiagramLabel, Occupant};
        let mut d = Diagram::board(
            &crate::geometry::Topology::rect(8, 8),
            0.0,
            |_| String::new(),
            |_| None,
            |sq| {
                let c = self.board[sq.index()];
                (c != 0).then(|| {
                    Occupant::piece(color_of(c), LETTERS[((c - 1) >> 1) as usize].to_string())
                })
            },
        );
        // The 3x3 dialectic beside the board, y = 2 on top, with its two tokens (neutral).
        let ((tx, ty), (ax, ay)) = self.tokens();
        for y in (0..3u8).rev() {
            let row = (0..3u8)
                .map(|x| {
                    let mut text = String::new();
                    if (x, y) == (tx, ty) {
                        text.push('T');
                    }
                    if (x, y) == (ax, ay) {
                        text.push('A');
                    }
                    let occupant = (!text.is_empty()).then(|| Occupant {
                        color: None,
                        text,
                        sub: String::new(),
                    });
                    (format!("dialectic ({x},{y})"), occupant)
                })
                .collect();
            let caption = if y == 2 { "dialectic" } else { "" };
            d.side_row(10.0, 1.0 + f32::from(2 - y), caption, row);
            d.labels.push(DiagramLabel {
                x: 9.6,
                y: 1.65 + f32::from(2 - y),
                text: y.to_string(),
            });
        }
        for x in 0..3u8 {
            d.labels.push(DiagramLabel {
                x: 10.5 + f32::from(x),
                y: 4.65,
                text: x.to_string(),
            });
        }
        d.legend.push((
            crate::diagram::SIDE,
            "dialectic: T Thesis, A Antithesis token (x, y); H Philosopher, G Great Philosopher"
                .to_string(),
        ));
        d
    }
}
