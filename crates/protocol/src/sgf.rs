//! SGF game records (to be written).
