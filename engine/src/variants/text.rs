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
            PositionError::syntax(
                name,
                col,
                format!("{f:?} is not a number from {min} to {}", self.max),
            )
        })
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

/// Reads the board field: calls `token` with the rest of the rank at each cell that is not a
/// run of empty cells, which returns the cell's value and how many characters it used.
///
/// # Errors
/// A syntax error naming the board field and the column, or the token reader's setup error.
pub fn read_board<T>(
    (col0, board): Field,
    topo: &Topology,
    runs: Runs,
    mut token: impl FnMut(&[char], Square) -> Result<(T, usize), Bad>,
) -> Result<Vec<(Square, T)>, PositionError> {
    let (_, ranks, levels) = topo.dims();
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
                    let (n, len) = match runs {
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
                        return err(
                            i,
                            format!(
                                "rank {} has more than {} cells (an empty run of {n})",
                                rank + 1,
                                row.len()
                            ),
                        );
                    }
                    i += len;
                    file += n;
                    continue;
                }
                if left == 0 {
                    return err(
                        i,
                        format!("rank {} has more than {} cells", rank + 1, row.len()),
                    );
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
                (Some(_), None) => {
                    let level = if levels > 1 { " in a level" } else { "" };
                    return err(
                        i,
                        format!("only {} ranks{level}, not {ranks}", i16::from(ranks) - rank),
                    );
                }
                (Some(s), _) => return err(i, format!("expected '{s}' after rank {}", rank + 1)),
                (None, Some(_)) => return err(i, "text after the last rank".into()),
            }
        }
    }
    Ok(out)
}

/// The existing cells of one rank of one level, from file `a` on.
fn row_cells(topo: &Topology, rank: i16, level: i16) -> Vec<Square> {
    let (files, _, _) = topo.dims();
    (0..i16::from(files))
        .filter_map(|file| topo.square_at(Coord { file, rank, level }))
        .filter(|&sq| topo.exists(sq))
        .collect()
}

/// Writes the board field as [`read_board`] reads it: `token` writes a cell's token and says
/// whether the cell is occupied; runs of empty cells are written as numbers.
pub fn write_board(topo: &Topology, mut token: impl FnMut(Square, &mut String) -> bool) -> String {
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
            for sq in row_cells(topo, rank, level) {
                tok.clear();
                if !token(sq, &mut tok) {
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

/// The side-to-move field, `w` or `b`.
///
/// # Errors
/// A syntax error naming the side field.
pub fn read_side((col, f): Field) -> Result<Color, PositionError> {
    match f {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(PositionError::syntax(
            "side",
            col,
            format!("side to move must be w or b, not {f:?}"),
        )),
    }
}
