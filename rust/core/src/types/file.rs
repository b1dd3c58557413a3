//! `File`: a column of the board, a to h.

use crate::simple_enum;

simple_enum! {
    /// A column of the board, from the a-file to the h-file.
    pub enum File { A, B, C, D, E, F, G, H }
}

impl File {
    /// The lower-case letter, `a` to `h`.
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses `a`..`h` (lower case only).
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::ALL[(c as u8 - b'a') as usize]),
            _ => None,
        }
    }
}
