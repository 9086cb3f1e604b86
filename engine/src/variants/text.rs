//! The position-text kernel of the free-form variants (Dialectic, Extreme 2D, Gateway, Dai
//! Mitregi): one grammar for the compact FEN-like form and one board writer, with the
//! variant's own parts (its cell tokens, hands, tokens, counters) plugged in.
//!
//! A compact text is whitespace-separated fields ([`fields`]); the first is the board: levels
//! (first level first) separated by `|` on boards with several levels, each level's ranks from
//! the top down separated by `/`, each rank its existing cells from file `a` on (holes are
//! skipped, not written), a run of empty cells as a number ([`Runs`]) and any other cell as the
//! variant's token (a letter, `+X`, a bracketed stack `[Prb]`), read by a closure. What a
//! variant accepts beyond this, and how strictly, is a parameter, so that every text each
//! variant accepted before the kernel is accepted with the same result, and every text it
//! refused is refused.

use crate::error::PositionError;
use crate::geometry::{Coord, Topology};
use crate::{Color, Square};

/// How the fields of a compact text are separated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Spacing {
    /// Runs of any whitespace; leading and trailing whitespace ignored.
    Whitespace,
    /// Runs of spaces (`' '`); leading and trailing spaces ignored.
    Spaces,
    /// Exactly one space between fields and none at either end.
    Single,
}

/// A field of a compact text: its 1-based character column and its text.
pub type Field<'a> = (usize, &'a str);

/// Splits a compact text into fields. `names` names the fields in order, for the errors.
///
/// # Errors
/// Under [`Spacing::Single`], an empty field (two spaces, or a space at either end).
pub fn fields<'a>(
    text: &'a str,
    spacing: Spacing,
    names: &[&'static str],
) -> Result<Vec<Field<'a>>, PositionError> {
    let sep = |c: char| match spacing {
        Spacing::Whitespace => c.is_whitespace(),
        Spacing::Spaces | Spacing::Single => c == ' ',
    };
    let mut out = Vec::new();
    let (mut start, mut col) = (None, 1);
    for (i, c) in text.char_indices() {
        match (sep(c), start) {
            (false, None) => start = Some((col, i)),
            (true, Some((scol, s))) => {
                out.push((scol, &text[s..i]));
                start = None;
            }
            (true, None) if spacing == Spacing::Single => {
                let name = names.get(out.len()).copied().unwrap_or("end");
                return Err(PositionError::syntax(
                    name,
                    col,
                    "empty field (one space between fields)",
                ));
            }
            _ => {}
        }
        col += 1;
    }
    match start {
        Some((scol, s)) => out.push((scol, &text[s..])),
        None if spacing == Spacing::Single => {
            let name = names.get(out.len()).copied().unwrap_or("end");
            return Err(PositionError::syntax(
                name,
                col,
                "empty field (one space between fields)",
            ));
        }
        None => {}
    }
    Ok(out)
}

/// How a counter field (halfmove clock, fullmove number) is written.
#[derive(Clone, Copy, Debug)]
pub struct Counter {
    /// Whether a leading `+` is allowed.
    pub plus: bool,
    /// The most digits.
    pub max_digits: usize,
    /// The largest value.
    pub max: u32,
}

impl Counter {
    /// Reads the field `name` as a number of at least `min`.
    ///
    /// # Errors
    /// A syntax error at the field's column when it is not such a number.
    pub fn read(
        &self,
        (col, f): Field,
        name: &'static str,
        min: u32,
    ) -> Result<u32, PositionError> {
        let digits = if self.plus {
            f.strip_prefix('+').unwrap_or(f)
        } else {
            f
        };
        (!digits.is_empty()
            && digits.len() <= self.max_digits
            && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse::<u32>().ok())
        .flatten()
        .filter(|n| (min..=self.max).contains(n))
        .ok_or_else(|| {
            let m = format!(
                "expected a number from {min} to {}, {f:?} is not a number",
                self.max
            );
            PositionError::syntax(name, col, m)
        })
    }
}

/// Reads a field of rights written as letters in any order, each at most once (castling's
/// `KQkq`; the rights are a set), or `-` for none: the union of the bits of its letters in
/// `rights`. `unknown` says what is wrong with a letter that names no right.
///
/// # Errors
/// A syntax error at the letter that names no right or repeats one.
pub fn read_rights(
    (col, f): Field,
    name: &'static str,
    rights: impl Iterator<Item = (char, u8)> + Clone,
    unknown: impl Fn(char) -> String,
) -> Result<u8, PositionError> {
    let mut bits = 0;
    if f == "-" {
        return Ok(bits);
    }
    for (i, ch) in f.chars().enumerate() {
        let Some((_, bit)) = rights.clone().find(|&(c, _)| c == ch) else {
            return Err(PositionError::syntax(name, col + i, unknown(ch)));
        };
        if bits & bit != 0 {
            let m = format!("castling right '{ch}' repeated");
            return Err(PositionError::syntax(name, col + i, m));
        }
        bits |= bit;
    }
    Ok(bits)
}

/// Writes a field of rights as [`read_rights`] reads it: the letters of the rights held, in
/// the order of `rights`, or `-` for none.
pub fn write_rights(bits: u8, rights: impl Iterator<Item = (char, u8)>) -> String {
    let held: String = rights
        .filter(|&(_, b)| bits & b != 0)
        .map(|r| r.0)
        .collect();
    if held.is_empty() {
        "-".into()
    } else {
        held
    }
}

/// How a run of empty cells is written in the board field.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Runs {
    /// One digit `1`–`9` per run (two digits are two runs).
    Digit,
    /// A number of at most this many digits, without a leading zero.
    Number(usize),
}

/// What a variant's token reader found wrong with a cell token.
pub enum Bad {
    /// A syntax error this many characters into the token.
    At(usize, String),
    /// A well-formed token that no position can hold.
    Setup(String),
}

/// A variant's compact text: how its fields are separated and its runs written, and its own
/// words for the two errors its users (and its tests) know by name.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    /// Field separation.
    pub spacing: Spacing,
    /// Runs of empty cells.
    pub runs: Runs,
    /// Says that a rank has too many cells (`rank too long`).
    pub too_long: &'static str,
    /// Says what the side to move must be (`expected w or b`).
    pub side: &'static str,
}

impl Format {
    /// Splits a text into fields ([`fields`]).
    ///
    /// # Errors
    /// As [`fields`].
    pub fn fields<'a>(
        &self,
        text: &'a str,
        names: &[&'static str],
    ) -> Result<Vec<Field<'a>>, PositionError> {
        fields(text, self.spacing, names)
    }

    /// The side-to-move field, `w` or `b`.
    ///
    /// # Errors
    /// A syntax error naming the side field.
    pub fn read_side(&self, (col, f): Field) -> Result<Color, PositionError> {
        match f {
            "w" => Ok(Color::White),
            "b" => Ok(Color::Black),
            _ => Err(PositionError::syntax(
                "side",
                col,
                format!("{}, found {f:?}", self.side),
            )),
        }
    }

    /// Reads the board field: calls `token` with the rest of the rank at each cell that is
    /// not a run of empty cells, which returns the cell's value and how many characters it
    /// used.
    ///
    /// # Errors
    /// A syntax error naming the board field and the column, or the token reader's setup
    /// error.
    pub fn read_board<T>(
        &self,
        field: Field,
        topo: &Topology,
        token: impl FnMut(&[char], Square) -> Result<(T, usize), Bad>,
    ) -> Result<Vec<(Square, T)>, PositionError> {
        read_board(field, topo, self, token)
    }
}

fn read_board<T>(
    (col0, board): Field,
    topo: &Topology,
    format: &Format,
    mut token: impl FnMut(&[char], Square) -> Result<(T, usize), Bad>,
) -> Result<Vec<(Square, T)>, PositionError> {
    let (files, ranks, levels) = topo.dims();
    let too_long = |rank: i16, cells: usize| {
        format!(
            "{}: rank {} has more than {cells} cells",
            format.too_long,
            rank + 1
        )
    };
    let chars: Vec<char> = board.chars().collect();
    let err = |i: usize, m: String| Err(PositionError::syntax("board", col0 + i, m));
    let mut out = Vec::new();
    let mut i = 0;
    for level in 0..i16::from(levels) {
        for rank in (0..i16::from(ranks)).rev() {
            let row = row_cells(topo, rank, level);
            let mut file = 0;
            let is_sep = |c: &char| *c == '/' || (levels > 1 && *c == '|');
            let end = chars[i..]
                .iter()
                .position(is_sep)
                .map_or(chars.len(), |k| i + k);
            while i < end {
                let c = chars[i];
                let left = row.len() - file;
                if c.is_ascii_digit() {
                    let (n, len) = match format.runs {
                        Runs::Digit => (c.to_digit(10).unwrap_or(0) as usize, 1),
                        Runs::Number(max) => {
                            let len = chars[i..end]
                                .iter()
                                .take_while(|c| c.is_ascii_digit())
                                .count();
                            if c == '0' || len > max {
                                return err(
                                    i,
                                    format!("empty run: at most {max} digits, no leading zero"),
                                );
                            }
                            let n = chars[i..i + len].iter().collect::<String>().parse();
                            (n.unwrap_or(0), len)
                        }
                    };
                    if n == 0 {
                        return err(i, "empty run of 0 cells".into());
                    }
                    if n > left {
                        return err(i, too_long(rank, row.len()));
                    }
                    i += len;
                    file += n;
                    continue;
                }
                if left == 0 {
                    return err(i, too_long(rank, row.len()));
                }
                match token(&chars[i..end], row[file]) {
                    Ok((value, used)) => {
                        out.push((row[file], value));
                        i += used;
                        file += 1;
                    }
                    Err(Bad::At(k, m)) => return err(i + k, m),
                    Err(Bad::Setup(m)) => return Err(PositionError::Setup(m)),
                }
            }
            if file != row.len() {
                return err(
                    i,
                    format!("rank {} has {file} cells, not {}", rank + 1, row.len()),
                );
            }
            let sep = if rank > 0 {
                Some('/')
            } else if level + 1 < i16::from(levels) {
                Some('|')
            } else {
                None
            };
            match (sep, chars.get(i)) {
                (None, None) => {}
                (Some(s), Some(&c)) if c == s => i += 1,
                (Some(_), None) if levels > 1 => {
                    let m = format!("board ends early: expected {levels} levels of {ranks} ranks");
                    return err(i, m);
                }
                (Some(_), None) => {
                    let n = i16::from(ranks) - rank;
                    let m = format!("expected '/' and rank {rank}: only {n} ranks, the board must have {ranks} ranks of {files}");
                    return err(i, m);
                }
                (Some(s), _) => return err(i, format!("expected '{s}' after rank {}", rank + 1)),
                (None, Some(_)) => return err(i, "text after the last rank".into()),
            }
        }
    }
    Ok(out)
}

/// The cells of one rank of one level, holes included, from file `a` on.
fn box_row(topo: &Topology, rank: i16, level: i16) -> impl Iterator<Item = Square> + '_ {
    let (files, _, _) = topo.dims();
    (0..i16::from(files)).filter_map(move |file| topo.square_at(Coord { file, rank, level }))
}

/// The existing cells of one rank of one level, from file `a` on.
fn row_cells(topo: &Topology, rank: i16, level: i16) -> Vec<Square> {
    box_row(topo, rank, level)
        .filter(|&sq| topo.exists(sq))
        .collect()
}

/// Writes the board field as [`read_board`] reads it: `token` writes a cell's token and says
/// whether the cell is occupied; runs of empty cells are written as numbers. A hole is
/// written as `hole` (the chess family's `*`), or skipped when it is `None`.
pub fn write_board(
    topo: &Topology,
    hole: Option<char>,
    mut token: impl FnMut(Square, &mut String) -> bool,
) -> String {
    let (_, ranks, levels) = topo.dims();
    let (mut s, mut tok) = (String::new(), String::new());
    for level in 0..i16::from(levels) {
        if level > 0 {
            s.push('|');
        }
        for rank in (0..i16::from(ranks)).rev() {
            if rank + 1 < i16::from(ranks) {
                s.push('/');
            }
            let mut empty = 0;
            for sq in box_row(topo, rank, level) {
                tok.clear();
                if !topo.exists(sq) {
                    match hole {
                        Some(c) => tok.push(c),
                        None => continue,
                    }
                } else if !token(sq, &mut tok) {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                s += &tok;
            }
            if empty > 0 {
                s += &empty.to_string();
            }
        }
    }
    s
}

/// The punctuation of a piece list, the form of the rules files' test positions
/// (`White: Ka1, (rr)h8. Black: Kj10. White to move.`). Either spelling of the list headers,
/// `White:`/`Black:` or `W:`/`B:`, is read in both.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Punctuation {
    /// Sentences end at `.` and items at `,`; empty sentences and items are skipped, any
    /// whitespace surrounds them, and either list may be left out (Extreme 2D).
    Loose,
    /// Every item ends with `,` or `.` (the last of a list with `.`), none is empty, spaces
    /// separate, both lists are required, only the side-to-move sentence may end the text
    /// without its `.`, and parenthesised remarks are ignored (Gateway).
    Strict,
}

/// A piece list read into its parts: the side to move, and each item (a piece and its cell,
/// in the variant's own words) with its side and 1-based column, for the variant to read.
#[derive(Clone, Debug)]
pub struct PieceList {
    /// The side to move.
    pub turn: Color,
    /// The listed items: side, column, text.
    pub items: Vec<(Color, usize, String)>,
}

/// The list headers, both spellings.
const HEADERS: [(&str, Color); 4] = [
    ("White:", Color::White),
    ("W:", Color::White),
    ("Black:", Color::Black),
    ("B:", Color::Black),
];

/// The side-to-move sentences.
const TO_MOVE: [(&str, Color); 2] = [
    ("White to move", Color::White),
    ("Black to move", Color::Black),
];

/// Whether a text is in the piece-list form rather than the compact one: it starts with a
/// list header or a side-to-move sentence, as the compact form cannot.
pub fn is_piece_list(text: &str) -> bool {
    let t = text.trim_start();
    let starts = HEADERS
        .iter()
        .map(|h| h.0)
        .chain(TO_MOVE.iter().map(|s| s.0));
    starts.into_iter().any(|s| t.starts_with(s))
}

fn header(rest: &str) -> Option<(&'static str, Color)> {
    HEADERS.into_iter().find(|(h, _)| rest.starts_with(h))
}

/// Reads a piece list's sentences (see [`Punctuation`]); the sentences come in any order.
///
/// # Errors
/// A syntax error naming the pieces or side field and the column.
pub fn read_piece_list(text: &str, punctuation: Punctuation) -> Result<PieceList, PositionError> {
    match punctuation {
        Punctuation::Loose => read_loose(text),
        Punctuation::Strict => read_strict(text),
    }
}

fn read_loose(text: &str) -> Result<PieceList, PositionError> {
    let mut items = Vec::new();
    let mut turn = None;
    let mut seen = [false; 2];
    let mut offset = 0usize; // char offset of the current part
    for part in text.split('.') {
        let part_chars = part.chars().count();
        let lead = part.chars().take_while(|c| c.is_whitespace()).count();
        let p = part.trim();
        let col = offset + lead + 1;
        offset += part_chars + 1;
        if p.is_empty() {
            continue;
        }
        let Some((h, side)) = header(p) else {
            let Some((_, c)) = TO_MOVE.into_iter().find(|(s, _)| p == *s) else {
                return Err(PositionError::syntax(
                    "pieces",
                    col,
                    "expected \"White:\", \"Black:\" or \"White/Black to move\"",
                ));
            };
            if turn.is_some() {
                return Err(PositionError::syntax(
                    "side",
                    col,
                    "side to move given twice",
                ));
            }
            turn = Some(c);
            continue;
        };
        if seen[side.index()] {
            return Err(PositionError::syntax("pieces", col, "side listed twice"));
        }
        seen[side.index()] = true;
        let mut tok_off = col + h.len();
        for tok in p[h.len()..].split(',') {
            let tlead = tok.chars().take_while(|c| c.is_whitespace()).count();
            let tcol = tok_off + tlead;
            tok_off += tok.chars().count() + 1;
            let t = tok.trim();
            if !t.is_empty() {
                items.push((side, tcol, t.to_string()));
            }
        }
    }
    let Some(turn) = turn else {
        return Err(PositionError::syntax(
            "side",
            text.chars().count() + 1,
            "missing \"White to move.\" or \"Black to move.\"",
        ));
    };
    Ok(PieceList { turn, items })
}

fn read_strict(text: &str) -> Result<PieceList, PositionError> {
    // Blank out remarks byte for byte, so that columns stay those of the input.
    let mut depth = 0usize;
    let mut blanked = String::with_capacity(text.len());
    for c in text.chars() {
        let remark = depth > 0 || c == '(';
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if remark || c == ')' {
            blanked.extend((0..c.len_utf8()).map(|_| ' '));
        } else {
            blanked.push(c);
        }
    }
    let text = blanked.as_str();
    let col = |pos: usize| text[..pos].chars().count() + 1;
    let err = |pos: usize, msg: String| PositionError::syntax("pieces", col(pos), msg);
    let skip_spaces =
        |pos: &mut usize| *pos += text[*pos..].len() - text[*pos..].trim_start_matches(' ').len();
    let (mut items, mut listed, mut turn, mut pos) = (Vec::new(), [false; 2], None, 0usize);
    loop {
        skip_spaces(&mut pos);
        if text[pos..].trim().is_empty() {
            break;
        }
        let rest = &text[pos..];
        if let Some((h, side)) = header(rest) {
            if listed[side.index()] {
                return Err(err(pos, format!("{h:?} listed twice")));
            }
            listed[side.index()] = true;
            pos += h.len();
            loop {
                skip_spaces(&mut pos);
                let end = text[pos..].find([',', '.']).map_or(text.len(), |e| pos + e);
                let item = text[pos..end].trim_end();
                if item.is_empty() {
                    return Err(err(pos, "expected a piece".into()));
                }
                items.push((side, col(pos), item.to_string()));
                pos = end;
                if pos >= text.len() {
                    return Err(err(pos, "expected ',' or '.'".into()));
                }
                pos += 1;
                if text.as_bytes()[pos - 1] == b'.' {
                    break;
                }
            }
            continue;
        }
        let Some((sentence, c)) = TO_MOVE.into_iter().find(|(s, _)| rest.starts_with(s)) else {
            return Err(err(
                pos,
                "expected \"White:\", \"Black:\", \"White to move.\" or \"Black to move.\"".into(),
            ));
        };
        if turn.is_some() {
            return Err(PositionError::syntax(
                "side",
                col(pos),
                "side to move given twice",
            ));
        }
        turn = Some(c);
        pos += sentence.len();
        // The full stop may be left out after the last sentence only.
        if text[pos..].starts_with('.') {
            pos += 1;
        } else if !text[pos..].trim().is_empty() {
            return Err(err(pos, "expected '.'".into()));
        }
    }
    for (c, long, short) in [
        (Color::White, "White:", "W:"),
        (Color::Black, "Black:", "B:"),
    ] {
        if !listed[c.index()] {
            return Err(err(
                text.len(),
                format!("missing the {long:?} or {short:?} list"),
            ));
        }
    }
    let turn = turn.ok_or_else(|| {
        PositionError::syntax(
            "side",
            col(text.len()),
            "missing \"White to move.\" or \"Black to move.\"",
        )
    })?;
    Ok(PieceList { turn, items })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3 x 2 x 2 box without `va1`: each cell a lower-case letter or empty.
    fn toy() -> Topology {
        Topology::boxed(3, 2, 2).without(&["va1"])
    }

    fn letter(chars: &[char], _: Square) -> Result<(char, usize), Bad> {
        match chars[0] {
            c @ 'a'..='z' => Ok((c, 1)),
            c => Err(Bad::At(0, format!("not a letter: {c:?}"))),
        }
    }

    fn format(runs: Runs) -> Format {
        Format {
            spacing: Spacing::Single,
            runs,
            too_long: "rank too long",
            side: "expected w or b",
        }
    }

    fn read(board: &str, runs: Runs) -> Result<Vec<(String, char)>, PositionError> {
        let topo = toy();
        let cells = format(runs).read_board((1, board), &topo, letter)?;
        Ok(cells
            .into_iter()
            .map(|(sq, c)| (topo.square_name(sq), c))
            .collect())
    }

    fn column(r: Result<Vec<(String, char)>, PositionError>) -> usize {
        match r {
            Err(PositionError::Syntax { column, .. }) => column,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn boards_read_levels_ranks_and_runs_skipping_holes() {
        let want = vec![
            ("vb2".to_string(), 'x'),
            ("vc1".to_string(), 'y'),
            ("wa1".to_string(), 'z'),
        ];
        assert_eq!(read("1x1/1y|3/z2", Runs::Digit).unwrap(), want);
        assert_eq!(read("1x1/1y|3/z11", Runs::Digit).unwrap(), want);
        assert_eq!(read("1x1/1y|3/z2", Runs::Number(1)).unwrap(), want);
        // Two digits are one number under Runs::Number: 11 is too long for the rank.
        assert_eq!(column(read("1x1/1y|3/z11", Runs::Number(2))), 11);
        assert_eq!(column(read("1x1/1y|3/z02", Runs::Number(2))), 11);
        assert_eq!(column(read("1x1/1y|3/z0", Runs::Digit)), 11);
        // The hole va1 is skipped, not written: rank 1 of level v has two cells.
        assert_eq!(column(read("1x1/3|3/3", Runs::Digit)), 5);
        assert_eq!(column(read("1x1/2|3", Runs::Digit)), 8);
        assert_eq!(column(read("1x1/2|3/3|3", Runs::Digit)), 10);
        assert_eq!(column(read("1x1|2|3/3", Runs::Digit)), 4);
        assert_eq!(column(read("1X1/2|3/3", Runs::Digit)), 2);
        assert_eq!(column(read("", Runs::Digit)), 1);
    }

    #[test]
    fn the_writer_is_the_reader_inverse() {
        let topo = toy();
        for board in ["1x1/1y|3/z2", "3/2|3/3", "abc/de|fgh/ijk"] {
            let cells = format(Runs::Digit)
                .read_board((1, board), &topo, letter)
                .unwrap();
            let written = write_board(&topo, None, |sq, s| {
                let c = cells.iter().find(|(at, _)| *at == sq).map(|(_, c)| *c);
                c.map(|c| s.push(c)).is_some()
            });
            assert_eq!(written, board);
        }
        // The chess family writes its holes.
        assert_eq!(write_board(&topo, Some('*'), |_, _| false), "3/*2|3/3");
    }

    #[test]
    fn fields_and_counters_follow_their_rules() {
        let names = ["a", "b", "c"];
        let f = fields(" x\ty  z ", Spacing::Whitespace, &names).unwrap();
        assert_eq!(f, vec![(2, "x"), (4, "y"), (7, "z")]);
        let f = fields(" x\ty  z ", Spacing::Spaces, &names).unwrap();
        assert_eq!(f, vec![(2, "x\ty"), (7, "z")]);
        assert_eq!(
            fields("x y", Spacing::Single, &names).unwrap(),
            vec![(1, "x"), (3, "y")]
        );
        for (text, field, column) in [
            ("x  y", "b", 3),
            (" x", "a", 1),
            ("x ", "b", 3),
            ("", "a", 1),
        ] {
            match fields(text, Spacing::Single, &names) {
                Err(PositionError::Syntax {
                    field: f,
                    column: c,
                    ..
                }) => {
                    assert_eq!((f, c), (field, column), "{text:?}")
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        let c = Counter {
            plus: true,
            max_digits: 3,
            max: 500,
        };
        assert_eq!(c.read((1, "+007"), "n", 0).ok(), Some(7));
        assert_eq!(c.read((1, "500"), "n", 0).ok(), Some(500));
        for bad in ["501", "0007", "+", "-1", "", "1x", "0"] {
            assert!(c.read((1, bad), "n", 1).is_err(), "{bad}");
        }
    }
}
