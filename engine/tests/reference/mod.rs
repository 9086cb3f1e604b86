//! Reference move generators: deliberately simple mailbox code written straight from the
//! rules files, used only by the differential tests.
#![allow(dead_code)]
pub mod extreme2d;
