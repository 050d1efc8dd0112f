//! Errors in data a person wrote (catalogue, setups, rule sets, positions, records): each says
//! which file, where in it, and what was expected there.

use std::fmt;
use std::ops::Range;

/// A problem at a place in a text file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for DataError {}

/// A named text being read, able to turn byte offsets into line and column numbers.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

impl<'a> Source<'a> {
    pub fn new(name: &'a str, text: &'a str) -> Self {
        Source { name, text }
    }

    /// The 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// The line and column of many offsets, finding the lines once (`line_col` for each
    /// would scan the text from the start every time).
    pub fn line_cols(&self, offsets: impl IntoIterator<Item = usize>) -> Vec<(usize, usize)> {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        offsets
            .into_iter()
            .map(|offset| {
                let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
                let line = starts.partition_point(|&s| s <= offset);
                let col = self.text[starts[line - 1]..offset].chars().count() + 1;
                (line, col)
            })
            .collect()
    }

    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> DataError {
        let (line, column) = self.line_col(offset);
        DataError {
            file: self.name.to_string(),
            line,
            column,
            message: message.into(),
        }
    }

    pub fn error_span(&self, span: &Range<usize>, message: impl Into<String>) -> DataError {
        self.error_at(span.start, message)
    }

    /// A TOML syntax or type error, at the place the parser reports.
    pub fn toml_error(&self, e: &toml::de::Error) -> DataError {
        let offset = e.span().map_or(0, |s| s.start);
        self.error_at(offset, e.message().trim().to_string())
    }

    /// Parses a TOML document into `T`, reporting errors with their place.
    pub fn parse_toml<T: serde::de::DeserializeOwned>(&self) -> Result<T, DataError> {
        toml::from_str(self.text).map_err(|e| self.toml_error(&e))
    }
}

/// Text from bytes read from a file; invalid UTF-8 is reported at the line and column of the
/// first bad byte, so a damaged file says where it is damaged.
pub fn utf8_text(name: &str, bytes: Vec<u8>) -> Result<String, DataError> {
    String::from_utf8(bytes).map_err(|e| {
        let ok = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let ok = std::str::from_utf8(ok).unwrap_or("");
        Source::new(name, ok).error_at(ok.len(), "the file is not valid UTF-8 here")
    })
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let src = Source::new("x.toml", "a = 1\nbé = 2\n");
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(6), (2, 1));
        assert_eq!(src.line_col(9), (2, 3));
        assert_eq!(
            src.line_cols([9, 0, 6, 100]),
            [(2, 3), (1, 1), (2, 1), (3, 1)]
        );
        let e = src.error_at(9, "expected something");
        assert_eq!(e.to_string(), "x.toml:2:3: expected something");
    }

    #[test]
    fn bad_utf8_is_placed_at_its_first_byte() {
        let e = utf8_text("x.toml", b"a = 1\nb\xc3\xa9 = \xff\n".to_vec()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.toml:2:6: the file is not valid UTF-8 here"
        );
        assert_eq!(utf8_text("x", b"ok".to_vec()).unwrap(), "ok");
    }
}
