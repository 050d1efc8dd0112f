//! Reading the files a person names: bounded in size, regular files only, so that a wrong path
//! (a FIFO, a device, a huge file) gives a clear error instead of a hang or a full memory.

use std::fs::{self, File};
use std::io;
use std::path::Path;

/// The largest file the program reads (records, positions, game data, settings): far above
/// any real one (a 2,000-move record is 40 kB), so that a wrong path cannot fill memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a file a person named, refusing what is not a regular file (a FIFO would block, a
/// device such as /dev/zero never ends, a directory is a mistake) and anything larger than
/// [`MAX_FILE_BYTES`], with a message that says which.
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let regular = |m: &fs::Metadata| -> io::Result<()> {
        let what = if m.is_file() {
            return Ok(());
        } else if m.is_dir() {
            "a directory"
        } else {
            "not a regular file (a FIFO, socket or device)"
        };
        Err(io::Error::new(io::ErrorKind::InvalidInput, what))
    };
    let too_large = |n: u64| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("the file is too large ({n} bytes; at most {MAX_FILE_BYTES})"),
        )
    };
    let meta = fs::metadata(path)?;
    regular(&meta)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    let file = File::open(path)?;
    // It may have been replaced since: check what was opened.
    regular(&file.metadata()?)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    io::Read::read_to_end(&mut io::Read::take(file, MAX_FILE_BYTES + 1), &mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}
