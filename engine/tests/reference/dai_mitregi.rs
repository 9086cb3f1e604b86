//! A deliberately simple reference move generator for Dai Mitregi, written straight from
//! `shared/rules/dai-mitregi.md`: a mailbox of `Option<Pc>`, explicit vector lists per piece
//! letter, pseudo-legal generation filtered by "is my King attacked after the move", and the
//! dead ranks and deployment limits spelled out as in the rules file. It shares no code with
//! the engine's `variants/dai_mitregi/`. Move texts: `e4e5`, `e4e5+`, `N*e5`.

#![allow(dead_code)]

const N: i32 = 16;
const ZONE: i32 = 4;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pc {
    pub white: bool,
    /// Upper-case letter of the unpromoted piece.
    pub letter: char,
    pub promoted: bool,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub cells: Vec<Option<Pc>>,
    pub white_to_move: bool,
    /// Hand pieces: (white?, upper-case letter), one entry per piece.
    pub hands: Vec<(bool, char)>,
    pub stepping: bool,
}

#[derive(Clone, Copy)]
enum Kind {
    /// One cell or a leap: always reaches its target regardless of what lies between.
    Leap,
    /// A straight two-cell move: in Stepping the halfway cell must be empty.
    Two,
    /// Any distance along the direction.
    Slide,
}

const LETTERS: &str = "KRWBMNHCUFZGSOVEYAI";

fn orth() -> Vec<(i32, i32)> {
    vec![(0, 1), (0, -1), (1, 0), (-1, 0)]
}
fn diag() -> Vec<(i32, i32)> {
    vec![(1, 1), (-1, 1), (1, -1), (-1, -1)]
}
fn scale(v: Vec<(i32, i32)>, k: i32) -> Vec<(i32, i32)> {
    v.into_iter().map(|(x, y)| (x * k, y * k)).collect()
}
fn add(out: &mut Vec<(i32, i32, Kind)>, v: Vec<(i32, i32)>, k: Kind) {
    for (x, y) in v {
        out.push((x, y, k));
    }
}

/// White's vectors of a piece (unpromoted letter + promoted flag).
fn vectors(letter: char, promoted: bool) -> Vec<(i32, i32, Kind)> {
    use Kind::*;
    let mut v = Vec::new();
    let gold = "RWNHZGOEA".contains(letter);
    if promoted {
        if letter == 'K' {
            add(&mut v, orth(), Leap);
            add(&mut v, diag(), Leap);
            add(&mut v, scale(orth(), 2), Two);
            add(&mut v, scale(diag(), 2), Two);
        } else if gold {
            add(&mut v, orth(), Slide);
            add(&mut v, vec![(1, 1), (-1, 1)], Slide);
        } else {
            add(&mut v, diag(), Slide);
            add(&mut v, vec![(0, 1)], Slide);
        }
        return v;
    }
    let all_w = orth();
    let fw = vec![(0, 1)];
    let all_f = diag();
    let ff = vec![(1, 1), (-1, 1)];
    let all_d = scale(orth(), 2);
    let fd = vec![(0, 2)];
    let all_a = scale(diag(), 2);
    let fa = vec![(2, 2), (-2, 2)];
    match letter {
        'K' => {
            add(&mut v, all_w, Leap);
            add(&mut v, all_f, Leap);
        }
        'R' => add(&mut v, all_w, Slide),
        'W' => add(&mut v, fw, Slide),
        'B' => add(&mut v, all_f, Slide),
        'M' => add(&mut v, ff, Slide),
        'N' => add(
            &mut v,
            vec![
                (1, 2),
                (-1, 2),
                (1, -2),
                (-1, -2),
                (2, 1),
                (-2, 1),
                (2, -1),
                (-2, -1),
            ],
            Leap,
        ),
        'H' => add(&mut v, vec![(1, 2), (-1, 2)], Leap),
        'C' => add(
            &mut v,
            vec![
                (1, 3),
                (-1, 3),
                (1, -3),
                (-1, -3),
                (3, 1),
                (-3, 1),
                (3, -1),
                (-3, -1),
            ],
            Leap,
        ),
        'U' => add(&mut v, vec![(1, 3), (-1, 3)], Leap),
        'Z' => {
            add(&mut v, fw, Leap);
            add(&mut v, fd, Two);
        }
        'F' => {
            add(&mut v, ff, Leap);
            add(&mut v, fa, Two);
        }
        // W/F/D/A = all/forward/forward/none
        'G' => {
            add(&mut v, all_w, Leap);
            add(&mut v, ff, Leap);
            add(&mut v, fd, Two);
        }
        // all/none/forward/all
        'S' => {
            add(&mut v, all_w, Leap);
            add(&mut v, fd, Two);
            add(&mut v, all_a, Two);
        }
        // none/all/all/forward
        'O' => {
            add(&mut v, all_f, Leap);
            add(&mut v, all_d, Two);
            add(&mut v, fa, Two);
        }
        // forward/all/none/forward
        'V' => {
            add(&mut v, fw, Leap);
            add(&mut v, all_f, Leap);
            add(&mut v, fa, Two);
        }
        // forward/none/all/forward
        'E' => {
            add(&mut v, fw, Leap);
            add(&mut v, all_d, Two);
            add(&mut v, fa, Two);
        }
        // forward/all/all/none
        'Y' => {
            add(&mut v, fw, Leap);
            add(&mut v, all_f, Leap);
            add(&mut v, all_d, Two);
        }
        // all/forward/none/all
        'A' => {
            add(&mut v, all_w, Leap);
            add(&mut v, ff, Leap);
            add(&mut v, all_a, Two);
        }
        // none/forward/forward/all
        'I' => {
            add(&mut v, ff, Leap);
            add(&mut v, fd, Two);
            add(&mut v, all_a, Two);
        }
        _ => unreachable!("letter {letter}"),
    }
    v
}

/// Ranks counted from the mover's far edge (1 = last rank) where the unpromoted piece has no
/// move: the rules file's list.
fn dead_depth(letter: char) -> i32 {
    match letter {
        'W' | 'M' | 'Z' | 'F' => 1,
        'H' => 2,
        'U' => 3,
        _ => 0,
    }
}

/// Rank 1..=16 counted from `white`'s far edge.
fn from_far(white: bool, y: i32) -> i32 {
    if white {
        N - y
    } else {
        y + 1
    }
}

fn in_zone(white: bool, y: i32) -> bool {
    if white {
        y >= N - ZONE
    } else {
        y < ZONE
    }
}

fn name(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

fn parse_cell(s: &str) -> Option<(i32, i32)> {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_lowercase() {
        return None;
    }
    let x = (b[0] - b'a') as i32;
    let y: i32 = s[1..].parse().ok()?;
    (x < N && (1..=N).contains(&y)).then_some((x, y - 1))
}

pub fn parse(text: &str) -> Result<RefPos, String> {
    parse_form(text, false)
}

pub fn parse_stepping(text: &str) -> Result<RefPos, String> {
    parse_form(text, true)
}

pub fn parse_form(text: &str, stepping: bool) -> Result<RefPos, String> {
    let parts: Vec<&str> = text.split(' ').collect();
    if parts.len() != 3 {
        return Err("need three fields".into());
    }
    let ranks: Vec<&str> = parts[0].split('/').collect();
    if ranks.len() != N as usize {
        return Err("need 16 ranks".into());
    }
    let mut cells = vec![None; (N * N) as usize];
    for (i, r) in ranks.iter().enumerate() {
        let y = N - 1 - i as i32;
        let mut x = 0;
        let ch: Vec<char> = r.chars().collect();
        let mut j = 0;
        while j < ch.len() {
            if ch[j].is_ascii_digit() {
                let mut n = 0;
                while j < ch.len() && ch[j].is_ascii_digit() {
                    n = n * 10 + ch[j].to_digit(10).unwrap() as i32;
                    j += 1;
                }
                x += n;
                continue;
            }
            let promoted = ch[j] == '+';
            if promoted {
                j += 1;
            }
            let l = *ch.get(j).ok_or("dangling +")?;
            let up = l.to_ascii_uppercase();
            if !LETTERS.contains(up) {
                return Err(format!("bad letter {l}"));
            }
            if x >= N {
                return Err("rank too long".into());
            }
            cells[(y * N + x) as usize] = Some(Pc {
                white: l.is_ascii_uppercase(),
                letter: up,
                promoted,
            });
            x += 1;
            j += 1;
        }
        if x != N {
            return Err("rank length".into());
        }
    }
    let white_to_move = match parts[1] {
        "w" => true,
        "b" => false,
        _ => return Err("side".into()),
    };
    let mut hands = Vec::new();
    if parts[2] != "-" {
        let h = parts[2]
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .ok_or("hands")?;
        for l in h.chars() {
            hands.push((l.is_ascii_uppercase(), l.to_ascii_uppercase()));
        }
    }
    hands.sort();
    Ok(RefPos {
        cells,
        white_to_move,
        hands,
        stepping,
    })
}

impl RefPos {
    fn at(&self, x: i32, y: i32) -> Option<Pc> {
        self.cells[(y * N + x) as usize]
    }

    /// Targets of the piece on (x, y): cells it may move to or capture on (own pieces
    /// excluded).
    fn targets(&self, x: i32, y: i32) -> Vec<(i32, i32)> {
        let p = self.at(x, y).unwrap();
        let sign = if p.white { 1 } else { -1 };
        let mut out = Vec::new();
        for (dx, dy, k) in vectors(p.letter, p.promoted) {
            let dy = dy * sign;
            match k {
                Kind::Leap | Kind::Two => {
                    let (tx, ty) = (x + dx, y + dy);
                    if !(0..N).contains(&tx) || !(0..N).contains(&ty) {
                        continue;
                    }
                    if matches!(k, Kind::Two)
                        && self.stepping
                        && self.at(x + dx / 2, y + dy / 2).is_some()
                    {
                        continue;
                    }
                    if self.at(tx, ty).is_none_or(|q| q.white != p.white) {
                        out.push((tx, ty));
                    }
                }
                Kind::Slide => {
                    let (mut tx, mut ty) = (x + dx, y + dy);
                    while (0..N).contains(&tx) && (0..N).contains(&ty) {
                        match self.at(tx, ty) {
                            None => out.push((tx, ty)),
                            Some(q) => {
                                if q.white != p.white {
                                    out.push((tx, ty));
                                }
                                break;
                            }
                        }
                        tx += dx;
                        ty += dy;
                    }
                }
            }
        }
        out
    }

    fn king_attacked(&self, white: bool) -> bool {
        let mut k = None;
        for y in 0..N {
            for x in 0..N {
                if let Some(p) = self.at(x, y) {
                    if p.white == white && p.letter == 'K' {
                        k = Some((x, y));
                    }
                }
            }
        }
        let Some(k) = k else { return false };
        for y in 0..N {
            for x in 0..N {
                if let Some(p) = self.at(x, y) {
                    if p.white != white && self.targets(x, y).contains(&k) {
                        return true;
                    }
                }
            }
        }
        false
    }

    pub fn in_check(&self) -> bool {
        self.king_attacked(self.white_to_move)
    }

    fn pseudo(&self) -> Vec<String> {
        let us = self.white_to_move;
        let mut out = Vec::new();
        for y in 0..N {
            for x in 0..N {
                let Some(p) = self.at(x, y) else { continue };
                if p.white != us {
                    continue;
                }
                for (tx, ty) in self.targets(x, y) {
                    if self.at(tx, ty).is_some_and(|q| q.letter == 'K') {
                        continue; // Kings are never captured.
                    }
                    let m = format!("{}{}", name(x, y), name(tx, ty));
                    if !p.promoted && (in_zone(us, y) || in_zone(us, ty)) {
                        out.push(format!("{m}+"));
                        if from_far(us, ty) <= dead_depth(p.letter) {
                            continue;
                        }
                    }
                    out.push(m);
                }
            }
        }
        let mut letters: Vec<char> = self
            .hands
            .iter()
            .filter(|h| h.0 == us)
            .map(|h| h.1)
            .collect();
        letters.dedup();
        for l in letters {
            for y in 0..N {
                for x in 0..N {
                    if self.at(x, y).is_some() || from_far(us, y) <= dead_depth(l) {
                        continue;
                    }
                    if self.limit_ok(l, x, y) {
                        out.push(format!("{l}*{}", name(x, y)));
                    }
                }
            }
        }
        out
    }

    /// Whether dropping `l` on (x, y) keeps within the deployment limits (own unpromoted
    /// pieces after the drop).
    fn limit_ok(&self, l: char, x: i32, y: i32) -> bool {
        let us = self.white_to_move;
        let same_group = |ox: i32, oy: i32| -> bool {
            match l {
                'Z' | 'W' => ox == x,
                'E' => ox % 2 == x % 2,
                _ => (ox + oy) % 2 == (x + y) % 2,
            }
        };
        let max = match l {
            'Z' | 'W' | 'E' => 2,
            'F' => 16,
            'B' | 'M' | 'C' | 'U' | 'O' | 'I' => 2,
            _ => return true,
        };
        let mut n = 1;
        for oy in 0..N {
            for ox in 0..N {
                if let Some(p) = self.at(ox, oy) {
                    if p.white == us && p.letter == l && !p.promoted && same_group(ox, oy) {
                        n += 1;
                    }
                }
            }
        }
        n <= max
    }

    pub fn legal_moves(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .pseudo()
            .into_iter()
            .filter(|m| !self.apply(m).king_attacked(self.white_to_move))
            .collect();
        v.sort();
        v
    }

    fn apply(&self, mv: &str) -> RefPos {
        let mut p = self.clone();
        let us = self.white_to_move;
        if let Some((l, c)) = mv.split_once('*') {
            let l = l.chars().next().unwrap();
            let (x, y) = parse_cell(c).unwrap();
            let i = p.hands.iter().position(|&h| h == (us, l)).unwrap();
            p.hands.remove(i);
            p.cells[(y * N + x) as usize] = Some(Pc {
                white: us,
                letter: l,
                promoted: false,
            });
        } else {
            let promote = mv.ends_with('+');
            let m = mv.trim_end_matches('+');
            let split = m[1..].find(|c: char| c.is_ascii_lowercase()).unwrap() + 1;
            let (fx, fy) = parse_cell(&m[..split]).unwrap();
            let (tx, ty) = parse_cell(&m[split..]).unwrap();
            let mut pc = p.cells[(fy * N + fx) as usize].take().unwrap();
            if let Some(v) = p.cells[(ty * N + tx) as usize] {
                p.hands.push((us, v.letter));
                p.hands.sort();
            }
            if promote {
                pc.promoted = true;
            }
            p.cells[(ty * N + tx) as usize] = Some(pc);
        }
        p.white_to_move = !us;
        p
    }

    pub fn play(&self, mv: &str) -> RefPos {
        self.apply(mv)
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
