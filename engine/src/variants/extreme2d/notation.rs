//! Extreme 2D Chess's position text, move names and board diagram.
//!
//! # Position text
//!
//! `<board> <side> [<halfmove> <fullmove>]`, FEN-like:
//!
//! * `board`: ranks 10 down to 1 separated by `/`, each rank files `a` to `j`. A run of empty
//!   cells is its length (`1`–`10`, written as one number). A stack is either one ownership
//!   letter — `P` plain (a Pawn), `H` Heir, `K` King for White, `p`, `h`, `k` for Black — or a
//!   bracketed disc list `[...]` holding exactly one ownership letter and the power discs
//!   `r`, `b`, `y` (at most two of each): `[Pr]` a White Rook, `[prb]` a Black Queen,
//!   `[Krr]` a White King with two reds. Output is canonical: a bare letter when the stack
//!   has no power discs, otherwise `[` ownership letter, reds, blues, yellows `]`; any order is
//!   accepted inside the brackets.
//! * `side`: `w` or `b`. Halfmove clock and fullmove number default to `0` and `1`.
//!
//! Everything else is read off the board: a side without a King on the board has not placed
//! its King and Heir yet; a side with a King but no Heir on the board has its Heir in reserve.
//! The start position is
//! `[pr][pb]1[pb][pr][pr][pb]1[pb][pr]/1[py]1[py]2[py]1[py]1/pppppppppp/10/10/10/10/PPPPPPPPPP/1[Py]1[Py]2[Py]1[Py]1/[Pr][Pb]1[Pb][Pr][Pr][Pb]1[Pb][Pr] w 0 1`.
//!
//! [`Extreme2d::from_text`](crate::Game::from_text) also accepts the piece-list form of the
//! rules file's test positions: `White: Kh10, (rr)a1. Black: Kh8, Pc3. White to move.`
//! (Gateway's headers `W:` and `B:` are read too: one piece-list grammar,
//! [`read_piece_list`](super::text::read_piece_list)).
//!
//! Order: a stack is a set of discs (one ownership disc, counts of each power colour), and
//! the rules give the order of the discs beneath the ownership disc no meaning (a stack's
//! moves are the union of its discs' powers), so the discs inside `[...]` or `(...)` are read
//! in any order and written in the canonical one above. In the piece-list form the three
//! sentences (`White:`, `Black:`, the side to move) and the stacks of a list are read in any
//! order too. The board itself is positional.
//!
//! Impossible positions are refused with [`PositionError::Setup`]: a stack without or with two
//! ownership discs (`[Kp]`, a King stack holding a Pawn disc), three discs of one colour, two
//! Kings or two Heirs of one side, an Heir without its King, more than 22 plain discs of a side
//! or more than 8 discs of one colour on the board, occupied placement cells of an unplaced
//! side, an impossible turn for the placement state, or the side not to move in check.
//!
//! # Move text
//!
//! * moves and captures: origin and destination, `e3e4`, `a1c10`;
//! * promotion: the Pawn step followed by `h`: `e9e10h`;
//! * placement: `K@c1,H@h1` (King cell first);
//! * King–Heir swap: `e1<>h5` (King cell first; quote it in a shell).

use super::*;

impl<const SIMPLE: bool> Extreme2dPos<SIMPLE> {
    /// Reads either form of the position text: the piece list or the compact board.
    pub(super) fn read_text(text: &str) -> Result<Self, PositionError> {
        if text::is_piece_list(text) {
            Self::parse_list(text)
        } else {
            Self::parse_compact(text)
        }
    }

    pub(super) fn write_text(&self) -> String {
        let out = text::write_board(topology(), None, |sq, out| {
            let s = self.cells[sq.index()];
            if s == 0 {
                return false;
            }
            if s & POWERS == 0 {
                out.push(owner_letter(s));
            } else {
                out.push('[');
                out.push(owner_letter(s));
                for (n, c) in [(reds(s), 'r'), (blues(s), 'b'), (yellows(s), 'y')] {
                    for _ in 0..n {
                        out.push(c);
                    }
                }
                out.push(']');
            }
            true
        });
        format!(
            "{out} {} {} {}",
            self.turn.char(),
            self.halfmove,
            self.fullmove
        )
    }

    pub(super) fn name_move(&self, m: Move) -> String {
        let (from, to) = (name(m.from().index()), name(m.to().index()));
        match m.kind() {
            MoveKind::RoyalPlacement => format!("K@{from},H@{to}"),
            MoveKind::RoyalSwap => format!("{from}<>{to}"),
            MoveKind::Promotion => format!("{from}{to}h"),
            _ => format!("{from}{to}"),
        }
    }

    pub(super) fn draw(&self) -> crate::diagram::Diagram {
        let mut d = crate::diagram::Diagram::board(
            topology(),
            0.0,
            |_| String::new(),
            |_| None,
            |sq| {
                let s = self.cells[sq.index()];
                (s != 0).then(|| {
                    let mut occupant = crate::diagram::Occupant::piece(
                        Color::ALL[owner(s)],
                        owner_letter(s).to_ascii_uppercase().to_string(),
                    );
                    // The stack's discs, as in the position text: `rrb` = two red, one blue.
                    for (n, c) in [(reds(s), 'r'), (blues(s), 'b'), (yellows(s), 'y')] {
                        for _ in 0..n {
                            occupant.sub.push(c);
                        }
                    }
                    occupant
                })
            },
        );
        d.legend.push((
            crate::diagram::LIGHT,
            "P base disc, H Heir, K King; small letters: the stack's power discs (r red, b blue, y yellow)"
                .to_string(),
        ));
        d
    }
}

impl<const SIMPLE: bool> Extreme2dPos<SIMPLE> {
    /// Validates the cells and builds the position.
    pub(super) fn from_cells(
        cells: [u16; N],
        turn: Color,
        halfmove: u32,
        fullmove: u32,
    ) -> Result<Self, PositionError> {
        let setup = |m: String| Err(PositionError::Setup(m));
        let mut kings = [0; 2];
        let mut heirs = [0; 2];
        let mut plains = [0; 2];
        let mut discs = [0; 3];
        for &s in &cells {
            if s == 0 {
                continue;
            }
            let c = owner(s);
            match role(s) {
                KING => kings[c] += 1,
                HEIR => heirs[c] += 1,
                _ => plains[c] += 1,
            }
            discs[0] += reds(s);
            discs[1] += blues(s);
            discs[2] += yellows(s);
        }
        for c in Color::ALL {
            let i = c.index();
            let side = c.name();
            if kings[i] > 1 {
                return setup(format!("{side} has {} Kings (one disc exists)", kings[i]));
            }
            if heirs[i] > 1 {
                return setup(format!("{side} has {} Heirs (one disc exists)", heirs[i]));
            }
            if heirs[i] == 1 && kings[i] == 0 {
                return setup(format!(
                    "{side} has an Heir on the board but no King (both are placed together)"
                ));
            }
            if plains[i] > 22 {
                return setup(format!(
                    "{side} has {} plain discs (at most 22 exist)",
                    plains[i]
                ));
            }
            if kings[i] == 0 {
                let back = if i == 0 { 0 } else { 90 };
                for sq in [back + 2, back + 7] {
                    if cells[sq] != 0 {
                        return setup(format!(
                            "{side} has not placed its King and Heir, but its placement cell {} is occupied",
                            name(sq)
                        ));
                    }
                }
            }
        }
        if SIMPLE {
            // [X14] [V]: one disc of each colour in a stack.
            for (sq, &s) in cells.iter().enumerate() {
                for (n, colour) in [(reds(s), "red"), (blues(s), "blue"), (yellows(s), "yellow")] {
                    if n > Self::CAP {
                        return setup(format!(
                            "{}: two {colour} discs in one stack (the simple powers allow one of a colour)",
                            name(sq)
                        ));
                    }
                }
            }
        }
        for (i, colour) in ["red", "blue", "yellow"].iter().enumerate() {
            if discs[i] > 8 {
                return setup(format!(
                    "{} {colour} discs on the board (8 exist)",
                    discs[i]
                ));
            }
        }
        // [X2]: White places on ply 1, Black on ply 2.
        match (kings[0], kings[1], turn) {
            (0, 0, Color::Black) => {
                return setup("neither side has placed, so White is to move".into())
            }
            (0, 1, _) => return setup("Black has placed its King but White has not".into()),
            (1, 0, Color::White) => {
                return setup("White has placed but Black has not, so Black is to move".into())
            }
            _ => {}
        }
        let mut pos = Self::empty();
        pos.turn = turn;
        pos.halfmove = halfmove;
        pos.fullmove = fullmove;
        for (sq, &s) in cells.iter().enumerate() {
            if s != 0 {
                pos.put(sq, s);
            }
        }
        if turn == Color::Black {
            pos.hash ^= tables().side;
        }
        let them = (!turn).index();
        if pos.placed(them) {
            let occ = pos.occ[0].0 | pos.occ[1].0;
            if pos.attacked(pos.king_sq[them] as usize, turn.index(), occ, 0) {
                return setup(format!("{} is not to move but is in check", (!turn).name()));
            }
        }
        Ok(pos)
    }

    /// Reads the compact text format (see the module documentation).
    pub(super) fn parse_compact(text: &str) -> Result<Self, PositionError> {
        let names = ["board", "side", "halfmove", "fullmove"];
        let fields = FORMAT.fields(text, &names)?;
        let end = text.chars().count() + 1;
        if fields.len() < 2 {
            let missing = names[fields.len()];
            return Err(PositionError::syntax(
                missing,
                end,
                format!("missing {missing} field"),
            ));
        }
        if fields.len() == 3 {
            return Err(PositionError::syntax(
                "fullmove",
                end,
                "missing fullmove field (give both clocks or neither)",
            ));
        }
        if fields.len() > 4 {
            return Err(PositionError::syntax(
                "end",
                fields[4].0,
                "unexpected text after the fullmove number",
            ));
        }
        let mut cells = [0u16; N];
        for (sq, s) in FORMAT.read_board(fields[0], topology(), read_stack)? {
            cells[sq.index()] = s;
        }
        let turn = FORMAT.read_side(fields[1])?;
        let mut clocks = [0u32, 1];
        let counter = Counter {
            plus: false,
            max_digits: usize::MAX,
            max: u32::MAX,
        };
        for k in 0..2 {
            if let Some(&f) = fields.get(2 + k) {
                clocks[k] = counter.read(f, names[2 + k], k as u32)?;
            }
        }
        Self::from_cells(cells, turn, clocks[0], clocks[1])
    }

    /// Reads the rules file's piece-list form:
    /// `White: Kh10, (rr)a1. Black: Kh8, Pc3. White to move.` The sentences, the stacks of a
    /// list and the discs in parentheses may come in any order.
    pub(super) fn parse_list(text: &str) -> Result<Self, PositionError> {
        let list = text::read_piece_list(text, Punctuation::Loose)?;
        let mut cells = [0u16; N];
        for (side, tcol, t) in &list.items {
            let bad = |m: &str| {
                Err(PositionError::syntax(
                    "pieces",
                    *tcol,
                    format!("{t:?}: {m}"),
                ))
            };
            let mut rest = t.as_str();
            let letter = match rest.chars().next() {
                Some(c @ ('K' | 'H' | 'P')) => {
                    rest = &rest[1..];
                    c
                }
                _ => 'P',
            };
            let mut discs = vec![side.cased(letter)];
            if let Some(r) = rest.strip_prefix('(') {
                let Some(close) = r.find(')') else {
                    return bad("unclosed (");
                };
                for d in r[..close].chars() {
                    if !matches!(d, 'r' | 'b' | 'y') {
                        return bad("power discs are r, b, y");
                    }
                    discs.push(d);
                }
                rest = &r[close + 1..];
            } else if t.starts_with(|c: char| c.is_ascii_lowercase()) {
                return bad("expected K, H, P or (discs) before the cell");
            }
            let Some(sq) = parse_cell(rest) else {
                return bad("no cell a1..j10 at the end");
            };
            if cells[sq] != 0 {
                return bad("cell listed twice");
            }
            cells[sq] = stack_from_discs(&discs, &name(sq)).map_err(PositionError::Setup)?;
        }
        Self::from_cells(cells, list.turn, 0, 1)
    }
}

/// Which disc an ownership / power letter stands for.
pub(super) enum Disc {
    Owner(usize, u16),
    Power(usize),
}

pub(super) fn disc(c: char) -> Option<Disc> {
    Some(match c {
        'P' => Disc::Owner(0, PLAIN),
        'H' => Disc::Owner(0, HEIR),
        'K' => Disc::Owner(0, KING),
        'p' => Disc::Owner(1, PLAIN),
        'h' => Disc::Owner(1, HEIR),
        'k' => Disc::Owner(1, KING),
        'r' => Disc::Power(0),
        'b' => Disc::Power(1),
        'y' => Disc::Power(2),
        _ => return None,
    })
}

pub(super) fn owner_letter(s: u16) -> char {
    let c = match role(s) {
        PLAIN => 'P',
        HEIR => 'H',
        _ => 'K',
    };
    Color::ALL[owner(s)].cased(c)
}

/// Builds a stack from disc letters, naming the problem (for `cell`) if it is impossible.
pub(super) fn stack_from_discs(discs: &[char], cell: &str) -> Result<u16, String> {
    let mut top: Option<(usize, u16, char)> = None;
    let mut counts = [0u16; 3];
    for &c in discs {
        match disc(c) {
            Some(Disc::Owner(o, r)) => {
                if let Some((_, _, first)) = top {
                    return Err(format!(
                        "{cell}: a stack has exactly one ownership disc, found {first} and {c}"
                    ));
                }
                top = Some((o, r, c));
            }
            Some(Disc::Power(i)) => {
                counts[i] += 1;
                if counts[i] > 2 {
                    let colour = ["red", "blue", "yellow"][i];
                    return Err(format!(
                        "{cell}: three {colour} discs in one stack (at most two of a colour)"
                    ));
                }
            }
            None => return Err(format!("{cell}: unknown disc {c:?}")),
        }
    }
    let (o, r, _) = top.ok_or_else(|| format!("{cell}: stack without an ownership disc"))?;
    Ok(stack(o, r, counts[0], counts[1], counts[2]))
}

/// Reads one stack of the board text: an ownership letter or a bracketed disc list.
pub(super) fn read_stack(chars: &[char], sq: Square) -> Result<(u16, usize), Bad> {
    let c = chars[0];
    let (discs, used) = if c == '[' {
        let close = chars.iter().position(|&x| x == ']');
        let Some(close) = close.filter(|&k| !chars[1..k].contains(&'[')) else {
            return Err(Bad::At(0, "unclosed [".into()));
        };
        (&chars[1..close], close + 1)
    } else if matches!(c, 'P' | 'H' | 'K' | 'p' | 'h' | 'k') {
        (&chars[..1], 1)
    } else if matches!(c, 'r' | 'b' | 'y' | 'R' | 'B' | 'Y') {
        let power = c.to_ascii_lowercase();
        let m = format!("power disc {c:?} outside a stack: write e.g. [P{power}]");
        return Err(Bad::At(0, m));
    } else {
        return Err(Bad::At(0, format!("unexpected character {c:?}")));
    };
    let cell = topology().square_name(sq);
    if let Some(d) = discs.iter().find(|&&d| disc(d).is_none()) {
        let m = format!("{cell}: unknown disc {d:?} (ownership P H K / p h k, powers r b y)");
        return Err(Bad::At(0, m));
    }
    stack_from_discs(discs, &cell)
        .map(|s| (s, used))
        .map_err(Bad::Setup)
}
