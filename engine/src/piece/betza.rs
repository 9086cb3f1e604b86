//! A parser for the subset of Betza notation the implemented pieces need.
//!
//! Atoms: `W F D N A H C Z G` (leaps), `K` (= `WF`), `R` (= `WW`), `B` (= `FF`), `Q` (= `RB`).
//! A doubled atom rides (`NN` is the Nightrider); trailing digits limit the range (`R4`, `W2`).
//! Modifiers before an atom: `m` (move only), `c` (capture only), and directions `f b l r v s`,
//! with `fl fr bl br` for one quadrant and `ff bb ll rr` for the narrow half of an oblique
//! atom's directions. Directions are from White's point of view.

use super::{Atom, Modality};
use crate::geometry::Vector;
use thiserror::Error;

/// A Betza string that cannot be parsed, with the 1-based column of the culprit.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("bad Betza string {text:?} at column {column}: {message}")]
pub struct BetzaError {
    /// The whole string.
    pub text: String,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// The base vector (dx, dy) of a leap atom with dx >= dy >= 0.
fn base(atom: char) -> Option<(i8, i8)> {
    Some(match atom {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// All vectors of an atom under the board's 8 symmetries, in a fixed order.
fn symmetric(dx: i8, dy: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (x, y) in [(dx, dy), (dy, dx)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// Whether vector (x, y) belongs to one direction token.
fn in_direction(token: &str, x: i8, y: i8) -> bool {
    let oblique = x != 0 && y != 0 && x.abs() != y.abs();
    match token {
        "f" => y > 0,
        "b" => y < 0,
        "l" => x < 0,
        "r" => x > 0,
        "v" => x == 0 || (oblique && y.abs() > x.abs()),
        "s" => y == 0 || (oblique && x.abs() > y.abs()),
        "fl" => y > 0 && x < 0,
        "fr" => y > 0 && x > 0,
        "bl" => y < 0 && x < 0,
        "br" => y < 0 && x > 0,
        "ff" => y > 0 && y.abs() > x.abs(),
        "bb" => y < 0 && y.abs() > x.abs(),
        "ll" => x < 0 && x.abs() > y.abs(),
        "rr" => x > 0 && x.abs() > y.abs(),
        _ => false,
    }
}

/// Splits direction letters into tokens: `fr`, `ff` and the like pair up, others stand alone.
fn direction_tokens(dirs: &str) -> Vec<String> {
    let b: Vec<char> = dirs.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let pair = b.get(i + 1).copied().filter(|&n| {
            (matches!(c, 'f' | 'b') && matches!(n, 'l' | 'r')) || (n == c && c != 'v' && c != 's')
        });
        match pair {
            Some(n) => {
                out.push(format!("{c}{n}"));
                i += 2;
            }
            None => {
                out.push(c.to_string());
                i += 1;
            }
        }
    }
    out
}

/// Parses a Betza string into atoms (White's point of view).
///
/// # Errors
/// An unknown letter, a modifier with no atom after it, or an unsupported modifier, with its
/// column.
pub fn parse(text: &str) -> Result<Vec<Atom>, BetzaError> {
    let err = |column: usize, message: &str| BetzaError {
        text: text.to_string(),
        column,
        message: message.to_string(),
    };
    let chars: Vec<char> = text.chars().collect();
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let mut modality = Modality::Both;
        let mut dirs = String::new();
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'm' => modality = Modality::MoveOnly,
                'c' => modality = Modality::CaptureOnly,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => dirs.push(chars[i]),
                other => return Err(err(i + 1, &format!("unsupported modifier '{other}'"))),
            }
            i += 1;
        }
        let Some(&atom) = chars.get(i) else {
            return Err(err(i + 1, "modifiers without an atom"));
        };
        i += 1;
        // Expand compound atoms into (leap, rides?) parts.
        let (parts, mut ride): (Vec<char>, bool) = match atom {
            'K' => (vec!['W', 'F'], false),
            'R' => (vec!['W'], true),
            'B' => (vec!['F'], true),
            'Q' => (vec!['W', 'F'], true),
            a if base(a).is_some() => (vec![a], false),
            other => return Err(err(i, &format!("unknown atom '{other}'"))),
        };
        if !ride && chars.get(i) == Some(&atom) && atom != 'K' {
            ride = true;
            i += 1;
        }
        let mut range: u8 = if ride { 0 } else { 1 };
        let digits_start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i > digits_start {
            let digits: String = chars[digits_start..i].iter().collect();
            range = digits
                .parse()
                .map_err(|_| err(digits_start + 1, "range too large"))?;
        }
        let tokens = direction_tokens(&dirs);
        let before = atoms.len();
        for part in parts {
            let (dx, dy) = base(part).expect("expanded atoms are leaps");
            for (x, y) in symmetric(dx, dy) {
                if tokens.is_empty() || tokens.iter().any(|t| in_direction(t, x, y)) {
                    let vector: Vector = [x, y, 0];
                    atoms.push(Atom {
                        vector,
                        range,
                        modality,
                    });
                }
            }
        }
        if atoms.len() == before {
            return Err(err(start + 1, "directions select no vector of the atom"));
        }
    }
    Ok(atoms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(s: &str) -> Vec<(i8, i8, u8, Modality)> {
        let mut v: Vec<_> = parse(s)
            .unwrap()
            .into_iter()
            .map(|a| (a.vector[0], a.vector[1], a.range, a.modality))
            .collect();
        v.sort_by_key(|t| (t.0, t.1, t.2));
        v
    }

    #[test]
    fn standard_pieces() {
        assert_eq!(parse("N").unwrap().len(), 8);
        assert_eq!(parse("K").unwrap().len(), 8);
        assert!(parse("K").unwrap().iter().all(|a| a.range == 1));
        assert_eq!(parse("Q").unwrap().len(), 8);
        assert!(parse("Q").unwrap().iter().all(|a| a.range == 0));
        assert_eq!(parse("RF").unwrap().len(), 8);
        assert_eq!(
            parse("NN").unwrap().iter().filter(|a| a.range == 0).count(),
            8
        );
        assert_eq!(parse("R4").unwrap()[0].range, 4);
    }

    #[test]
    fn pawn_directions() {
        use Modality::*;
        assert_eq!(
            vectors("fmWfcF"),
            vec![
                (-1, 1, 1, CaptureOnly),
                (0, 1, 1, MoveOnly),
                (1, 1, 1, CaptureOnly)
            ]
        );
        assert_eq!(vectors("ffN"), vec![(-1, 2, 1, Both), (1, 2, 1, Both)]);
        assert_eq!(vectors("frF"), vec![(1, 1, 1, Both)]);
        assert_eq!(vectors("sW"), vec![(-1, 0, 1, Both), (1, 0, 1, Both)]);
        assert_eq!(vectors("vN").len(), 4);
    }

    #[test]
    fn errors_name_the_column() {
        let e = parse("WX").unwrap_err();
        assert_eq!(e.column, 2);
        assert!(e.to_string().contains("unknown atom 'X'"));
        assert_eq!(parse("fm").unwrap_err().column, 3);
        assert_eq!(parse("iW").unwrap_err().column, 1);
    }
}
