//! Playing games and keeping them: one game ([`play`]), the pair scheduler and the settings
//! a match is played with ([`schedule`]), engine configurations ([`config`]) and external
//! engines ([`engine_process`]), openings, and the run folder: its format ([`format`]), the
//! runner that fills it ([`tournament`]), its readers ([`recorded`]), PGN, locks and
//! clearing ([`folder`]), merge, and SPRT matches ([`sprt`]).

pub mod config;
pub mod engine_process;
pub mod folder;
pub mod folder_lock;
pub mod format;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod play;
pub mod recorded;
pub mod schedule;
pub mod sprt;
pub mod tournament;
pub mod variant_file;
