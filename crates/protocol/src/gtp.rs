//! The GTP engine protocol (to be written).
