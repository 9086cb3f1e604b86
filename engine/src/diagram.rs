//! Board diagrams: how a position is drawn, as data, so that reports stay variant-agnostic.
//!
//! A [`Diagram`] is a list of cells placed on a plane (in cell units, y growing downwards),
//! each with a fill, a name and what stands on it, plus axis labels and a legend. A variant
//! lays out its board once ([`Game::diagram`](crate::Game::diagram)): the cells and their
//! order are the same for every position of the variant, only the occupants change. That lets
//! a report store a game as the occupants of each ply (or their differences) and draw any of
//! them with one template.
//!
//! ```
//! use variantlab_engine::{Game, variants::VariantKind, with_variant};
//! let d = with_variant!(VariantKind::Dream46, G => G::start().diagram());
//! assert_eq!(d.cells.iter().filter(|c| !c.hole).count(), 46);
//! assert_eq!(d.cells.iter().filter(|c| c.occupant.is_some()).count(), 32);
//! ```

use crate::geometry::{Coord, Topology};
use crate::{Color, Square};

/// Light board cells.
pub const LIGHT: &str = "#f0d9b5";
/// Dark board cells.
pub const DARK: &str = "#b58863";
/// Cells outside the board proper (hands, token grids).
pub const SIDE: &str = "#e4e8ee";

/// What stands on a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occupant {
    /// Owner; `None` for a neutral marker (a dialectic token).
    pub color: Option<Color>,
    /// The piece's letter(s), upper case.
    pub text: String,
    /// Small text under the letter: a stack's discs (`rby`), a count in hand.
    pub sub: String,
}

impl Occupant {
    /// A piece of `color` written `text`.
    pub fn piece(color: Color, text: impl Into<String>) -> Occupant {
        Occupant {
            color: Some(color),
            text: text.into(),
            sub: String::new(),
        }
    }

    /// A compact code: owner (`w`, `b`, `n`), text, and `/sub` when there is one. The report
    /// stores plies as these codes; `""` stands for an empty cell.
    pub fn code(&self) -> String {
        let owner = match self.color {
            Some(Color::White) => 'w',
            Some(Color::Black) => 'b',
            None => 'n',
        };
        if self.sub.is_empty() {
            format!("{owner}{}", self.text)
        } else {
            format!("{owner}{}/{}", self.text, self.sub)
        }
    }
}

/// One drawn cell.
#[derive(Clone, Debug, PartialEq)]
pub struct DiagramCell {
    /// Its name (`e4`, `xb3`, `T(1,2)`, `White's hand: R`), shown on hover.
    pub name: String,
    /// Left edge, in cell units.
    pub x: f32,
    /// Top edge, in cell units.
    pub y: f32,
    /// Fill colour (CSS).
    pub fill: &'static str,
    /// A hole in the board's bounding box: drawn crossed out, never occupied.
    pub hole: bool,
    /// What stands on it.
    pub occupant: Option<Occupant>,
}

/// A text label placed on the diagram (file letters, rank numbers, level names, captions).
#[derive(Clone, Debug, PartialEq)]
pub struct DiagramLabel {
    /// Centre, in cell units.
    pub x: f32,
    /// Baseline centre, in cell units.
    pub y: f32,
    /// The text.
    pub text: String,
}

/// A drawn position: cells (same list for every position of the variant), labels, legend.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Diagram {
    /// The cells, in a fixed order.
    pub cells: Vec<DiagramCell>,
    /// Labels.
    pub labels: Vec<DiagramLabel>,
    /// Fill colour and meaning of the special fills.
    pub legend: Vec<(&'static str, String)>,
}

impl Diagram {
    /// Width and height of the drawing, in cell units.
    pub fn size(&self) -> (f32, f32) {
        let w = self.cells.iter().map(|c| c.x + 1.0).fold(0.0, f32::max);
        let h = self.cells.iter().map(|c| c.y + 1.0).fold(0.0, f32::max);
        let lw = self.labels.iter().map(|l| l.x + 0.5).fold(0.0, f32::max);
        let lh = self.labels.iter().map(|l| l.y + 0.2).fold(0.0, f32::max);
        (w.max(lw), h.max(lh))
    }

    /// The occupant codes of every cell, in cell order ([`Occupant::code`], `""` if empty).
    pub fn codes(&self) -> Vec<String> {
        self.cells
            .iter()
            .map(|c| c.occupant.as_ref().map_or_else(String::new, Occupant::code))
            .collect()
    }

    /// Lays out a board of the topology: levels side by side (left to right in level order,
    /// each with its files labelled underneath and its name above when there are several),
    /// ranks labelled on the left, holes kept as crossed cells. `fill` colours a cell (the
    /// checkerboard when it returns `None`), `occupant` says what stands on it. The board
    /// starts one cell right of and `top` cells below the origin, leaving room for labels.
    pub fn board(
        topo: &Topology,
        top: f32,
        level_name: impl Fn(usize) -> String,
        fill: impl Fn(Square) -> Option<&'static str>,
        occupant: impl Fn(Square) -> Option<Occupant>,
    ) -> Diagram {
        let (files, ranks, levels) = topo.dims();
        let mut d = Diagram::default();
        let level_w = files as f32 + 1.0;
        for level in 0..levels {
            let x0 = 1.0 + level as f32 * level_w;
            if levels > 1 {
                d.labels.push(DiagramLabel {
                    x: x0 + files as f32 / 2.0,
                    y: top - 0.3,
                    text: level_name(level as usize),
                });
            }
            for rank in (0..ranks).rev() {
                let y = top + (ranks - 1 - rank) as f32;
                if level == 0 {
                    d.labels.push(DiagramLabel {
                        x: 0.5,
                        y: y + 0.65,
                        text: (rank + 1).to_string(),
                    });
                }
                for file in 0..files {
                    let Some(sq) = topo.square_at(Coord {
                        file: file as i16,
                        rank: rank as i16,
                        level: level as i16,
                    }) else {
                        continue;
                    };
                    let exists = topo.exists(sq);
                    d.cells.push(DiagramCell {
                        name: if exists {
                            topo.square_name(sq)
                        } else {
                            format!("{} (hole)", topo.square_name(sq))
                        },
                        x: x0 + file as f32,
                        y,
                        fill: fill(sq).unwrap_or(if (file + rank) % 2 == 0 { DARK } else { LIGHT }),
                        hole: !exists,
                        occupant: if exists { occupant(sq) } else { None },
                    });
                }
            }
            for file in 0..files {
                d.labels.push(DiagramLabel {
                    x: x0 + file as f32 + 0.5,
                    y: top + ranks as f32 + 0.65,
                    text: ((b'a' + file) as char).to_string(),
                });
            }
        }
        d
    }

    /// Adds one row of side cells (a hand, a token grid's row) at `y`, starting at `x`, one
    /// cell per entry: name and occupant.
    pub fn side_row(
        &mut self,
        x: f32,
        y: f32,
        caption: &str,
        cells: Vec<(String, Option<Occupant>)>,
    ) {
        self.labels.push(DiagramLabel {
            x: x + cells.len() as f32 / 2.0,
            y: y - 0.25,
            text: caption.to_string(),
        });
        for (i, (name, occupant)) in cells.into_iter().enumerate() {
            self.cells.push(DiagramCell {
                name,
                x: x + i as f32,
                y,
                fill: SIDE,
                hole: false,
                occupant,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::variants::VariantKind;
    use crate::with_variant;

    /// Every variant's start diagram: the cells that exist, the pieces (hands empty, tokens
    /// counted apart), and a layout that is the same for the start and a later position.
    #[test]
    // `with_variant!` makes the type concrete, and most variants' positions are `Copy`.
    #[allow(clippy::clone_on_copy)]
    fn start_diagrams_count_cells_and_pieces() {
        for kind in VariantKind::ALL {
            let (d, start_text, later) = with_variant!(kind, G => {
                let p = G::start();
                let mut q = p.clone();
                let mut moves = <G as crate::Game>::Moves::default();
                for _ in 0..3 {
                    moves.clear();
                    q.legal_moves(&mut moves);
                    let m = moves.as_ref()[0];
                    q.play_unchecked(m);
                }
                (p.diagram(), p.to_text(), q.diagram())
            });
            let info = kind.info();
            let board_cells = d
                .cells
                .iter()
                .filter(|c| !c.hole && c.fill != super::SIDE)
                .count();
            assert_eq!(board_cells, info.cells, "{}", kind.name());
            let pieces = d
                .cells
                .iter()
                .filter(|c| c.fill != super::SIDE && c.occupant.is_some())
                .count();
            let board_text = start_text.split(' ').next().unwrap();
            // Pieces in the position text: one letter per piece (a stack `[Prb]` is one piece,
            // a Gateway Quantum King fills its row with four `K` letters, drawn as four cells).
            let mut letters = 0;
            let mut in_stack = false;
            for ch in board_text.chars() {
                match ch {
                    '[' => {
                        in_stack = true;
                        letters += 1
                    }
                    ']' => in_stack = false,
                    c if c.is_ascii_alphabetic() && !in_stack => letters += 1,
                    _ => {}
                }
            }
            assert_eq!(pieces, letters, "{}: {start_text}", kind.name());
            let place = |d: &super::Diagram| {
                d.cells
                    .iter()
                    .map(|c| (c.name.clone(), c.x.to_bits(), c.y.to_bits()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(place(&d), place(&later), "{}", kind.name());
            let (w, h) = d.size();
            assert!(w > 3.0 && h > 3.0);
        }
    }
}
