//! The board of a `[board]` table, Black's view of it, and promotion zones.

use super::doc::{BoardDoc, Ctx, Line};
use super::{VariantFileError, SUPPORTED_SIZES};
use crate::geometry::{Coord, StepRule, Topology};
use bitvec::prelude::*;

/// The board of a `[board]` table.
pub(super) fn board(ctx: &Ctx, b: &BoardDoc) -> Result<Topology, VariantFileError> {
    let (f, r) = (*b.files.get_ref(), *b.ranks.get_ref());
    let fl = ctx.at(b.files.span());
    if !(1..=26).contains(&f) || !(1..=128).contains(&r) || f * r > 128 {
        return Err(ctx.err(
            fl,
            "board",
            format!(
                "a {f}x{r} board ({} cells) is not supported; supported are {SUPPORTED_SIZES}",
                f * r
            ),
        ));
    }
    let mut topo = Topology::rect(f as u8, r as u8);
    let mut holes = Vec::new();
    for h in &b.holes {
        match topo.parse_square(h.get_ref()) {
            Some(_) => holes.push(h.get_ref().as_str()),
            None => {
                return Err(ctx.err(
                    ctx.at(h.span()),
                    "board.holes",
                    format!("{:?} is not a cell of a {f}x{r} board", h.get_ref()),
                ))
            }
        }
    }
    let mut regions = Vec::new();
    for reg in &b.regions {
        let rl = ctx.at(reg.span());
        let mut bits = bitvec![0; topo.num_squares()];
        for part in reg.get_ref() {
            let (a, z) = part.split_once(':').unwrap_or((part, part));
            let (Some(a), Some(z)) = (topo.parse_square(a), topo.parse_square(z)) else {
                return Err(ctx.err(
                    rl,
                    "board.regions",
                    format!("{part:?} is not a cell or a rectangle \"a1:e5\" of a {f}x{r} board"),
                ));
            };
            let (ca, cz) = (topo.coord(a), topo.coord(z));
            for file in ca.file.min(cz.file)..=ca.file.max(cz.file) {
                for rank in ca.rank.min(cz.rank)..=ca.rank.max(cz.rank) {
                    let sq = topo
                        .square_at(Coord {
                            file,
                            rank,
                            level: 0,
                        })
                        .expect("inside the box");
                    bits.set(sq.index(), true);
                }
            }
        }
        regions.push(bits);
    }
    topo = topo.without(&holes);
    if !regions.is_empty() {
        topo = topo.with_rule(StepRule::SameRegion(regions));
    }
    Ok(topo)
}

/// How Black's cells are derived from White's: the rank mirror, or the half turn on boards
/// that only a half turn maps onto themselves (as `Rules::black_view`).
pub(super) fn mirror_fn(topo: &Topology) -> impl Fn(crate::Square) -> crate::Square + '_ {
    let rank_mirror_fits = topo.cells().all(|sq| topo.exists(topo.rank_mirror(sq)));
    move |sq| {
        let m = topo.rank_mirror(sq);
        if rank_mirror_fits {
            return m;
        }
        let c = topo.coord(m);
        let (files, _, _) = topo.dims();
        topo.square_at(Coord {
            file: i16::from(files) - 1 - c.file,
            ..c
        })
        .unwrap_or(m)
    }
}

/// Promotion cells: cell names, or a rank number for every existing cell of that rank.
pub(super) fn zone(
    ctx: &Ctx,
    topo: &Topology,
    line: Line,
    field: &str,
    entries: &[String],
) -> Result<Vec<String>, VariantFileError> {
    let (files, ranks, _) = topo.dims();
    let mut out = Vec::new();
    for e in entries {
        if let Ok(r) = e.parse::<u32>() {
            if r < 1 || r > ranks as u32 {
                return Err(ctx.err(line, field, format!("rank {r} is not on the board")));
            }
            for file in 0..i16::from(files) {
                if let Some(sq) = topo.square_at(Coord {
                    file,
                    rank: r as i16 - 1,
                    level: 0,
                }) {
                    if topo.exists(sq) {
                        out.push(topo.square_name(sq));
                    }
                }
            }
        } else {
            match topo.parse_square(e) {
                Some(sq) if topo.exists(sq) => out.push(e.clone()),
                _ => {
                    return Err(ctx.err(
                        line,
                        field,
                        format!("{e:?} is neither a cell nor a rank number of this board"),
                    ))
                }
            }
        }
    }
    Ok(out)
}
