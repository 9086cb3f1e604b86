//! Times perft from a position: `cargo run --release --example dbg -- FEN DEPTH`.
use std::time::Instant;
use variantlab_engine::{perft::perft, position::Position, variants::Chess};
fn main() {
    let fen = std::env::args().nth(1).unwrap_or_default();
    let d: u32 = std::env::args()
        .nth(2)
        .and_then(|d| d.parse().ok())
        .unwrap_or(5);
    let p = Position::<Chess>::from_text(&fen).unwrap_or_else(|_| Position::start());
    let t = Instant::now();
    let n = perft(&p, d);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {s:.3}s {:.1} Mnps", n as f64 / s / 1e6);
}
