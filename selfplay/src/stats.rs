//! Temporary statistics core (replaced by the full module).

/// One game's result from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// 1-0.
    WhiteWin,
    /// 1/2-1/2.
    Draw,
    /// 0-1.
    BlackWin,
}

/// Additive counts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// Pentanomial counts over pairs.
    pub penta: [u64; 5],
}

impl Stats {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.white_wins + self.draws + self.black_wins
    }
    /// Adds a game.
    pub fn add_game(&mut self, r: GameResult) {
        match r {
            GameResult::WhiteWin => self.white_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWin => self.black_wins += 1,
        }
    }
    /// Adds a pair.
    pub fn add_pair(&mut self, a: f64, b: f64) {
        self.penta[((a + b) * 2.0).round() as usize] += 1;
    }
    /// White's score.
    pub fn white_score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.white_wins as f64 + 0.5 * self.draws as f64) / n as f64
    }
    /// Normal-approximation interval.
    pub fn score_interval(&self, _confidence: f64) -> (f64, f64) {
        let n = self.games() as f64;
        let s = self.white_score();
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let var = (self.white_wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.black_wins as f64 * s.powi(2))
            / n;
        let h = 1.959964 * (var / n).sqrt();
        ((s - h).max(0.0), (s + h).min(1.0))
    }
    /// Draw rate.
    pub fn draw_rate(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }
}
