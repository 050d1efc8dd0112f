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

    /// Where the value of the TOML string written at `span_start` (its opening quote) stands
    /// in the file, so that a place in the value can be reported at its line and column
    /// whatever quotes, escapes or line continuations the string is written with.
    pub fn string_offsets(&self, span_start: usize) -> StringOffsets {
        StringOffsets::new(self.text, span_start)
    }

    /// Parses a TOML document into `T`, reporting errors with their place.
    pub fn parse_toml<T: serde::de::DeserializeOwned>(&self) -> Result<T, DataError> {
        toml::from_str(self.text).map_err(|e| self.toml_error(&e))
    }
}

/// Maps byte offsets in a TOML string's value to byte offsets in the file: one anchor
/// `(value offset, file offset)` where the string starts and after every escape.
#[derive(Clone, Debug)]
pub struct StringOffsets {
    anchors: Vec<(usize, usize)>,
}

impl StringOffsets {
    fn new(text: &str, span_start: usize) -> StringOffsets {
        let rest = text.get(span_start..).unwrap_or("");
        let (open, literal) = match rest.as_bytes() {
            [b'"', b'"', b'"', ..] => (3, false),
            [b'\'', b'\'', b'\'', ..] => (3, true),
            [b'\'', ..] => (1, true),
            _ => (1, false),
        };
        let mut at = span_start + open;
        // A newline right after the opening quotes of a multi-line string is not part of it.
        if open == 3 {
            at += [("\r\n", 2), ("\n", 1)]
                .iter()
                .find(|(nl, _)| rest[3..].starts_with(nl))
                .map_or(0, |&(_, n)| n);
        }
        let mut anchors = vec![(0, at)];
        if literal {
            return StringOffsets { anchors };
        }
        let b = text.as_bytes();
        let mut value = 0;
        let mut i = at;
        let close = rest.as_bytes().get(..open).unwrap_or(b"\"");
        while i < b.len() && !b[i..].starts_with(close) {
            if b[i] != b'\\' {
                i += 1;
                value += 1;
                continue;
            }
            let (src_len, value_len) = match b.get(i + 1) {
                Some(b'u') => (6, unicode_len(text.get(i + 2..i + 6))),
                Some(b'U') => (10, unicode_len(text.get(i + 2..i + 10))),
                // A line-ending backslash: the whitespace and newlines after it vanish.
                Some(c) if c.is_ascii_whitespace() => (
                    1 + b[i + 1..]
                        .iter()
                        .take_while(|c| c.is_ascii_whitespace())
                        .count(),
                    0,
                ),
                _ => (2, 1),
            };
            i += src_len;
            value += value_len;
            anchors.push((value, i));
        }
        StringOffsets { anchors }
    }

    /// The file offset of byte `offset` of the value.
    pub fn file_offset(&self, offset: usize) -> usize {
        let k = self.anchors.partition_point(|&(v, _)| v <= offset).max(1);
        let (v, f) = self.anchors[k - 1];
        f + (offset - v)
    }
}

/// The UTF-8 length of the character a `\u`/`\U` escape's hex digits name.
fn unicode_len(hex: Option<&str>) -> usize {
    hex.and_then(|h| u32::from_str_radix(h, 16).ok())
        .and_then(char::from_u32)
        .map_or(1, char::len_utf8)
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

    #[test]
    fn places_in_strings_account_for_quotes_and_escapes() {
        let text = "a = \"x\\ty\\u00e9z\"\nb = '''\nlit\\eral'''\nc = \"\"\"\\\n   q\"\"\"\n";
        let src = Source::new("f.toml", text);
        let a: toml::Table = toml::from_str(text).unwrap();
        assert_eq!(a["a"].as_str(), Some("x\tyéz"));
        // 'z' is byte 4 of the value (é is two bytes) and stands at column 17.
        let m = src.string_offsets(4);
        assert_eq!(&text[m.file_offset(0)..m.file_offset(0) + 1], "x");
        assert_eq!(&text[m.file_offset(2)..m.file_offset(2) + 1], "y");
        assert_eq!(&text[m.file_offset(5)..m.file_offset(5) + 1], "z");
        // A literal multi-line string: no escapes, the first newline skipped.
        let b = text.find("'''").unwrap();
        let m = src.string_offsets(b);
        assert_eq!(&text[m.file_offset(3)..m.file_offset(3) + 2], "\\e");
        // A line continuation vanishes from the value.
        assert_eq!(a["c"].as_str(), Some("q"));
        let c = text.find("\"\"\"").unwrap();
        let m = src.string_offsets(c);
        assert_eq!(&text[m.file_offset(0)..m.file_offset(0) + 1], "q");
    }
}
