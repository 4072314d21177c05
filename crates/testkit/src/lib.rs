//! What the workspace's tests share (a dev-dependency only, outside the crate stack).
//!
//! Property tests replay the failures recorded in the repository's `*.proptest-regressions`
//! files, but a new failure is reported, not written next to the test: tests never write
//! into the source tree. To keep a new failure as a regression, copy the seed that proptest
//! prints (`cc …`) into the file by hand.

use std::any::Any;
use std::fmt;

use proptest::test_runner::{Config, FailurePersistence, FileFailurePersistence, PersistedSeed};

/// proptest's configuration with `cases` cases, replaying the recorded failures and
/// recording none. proptest's own environment variables still apply, as `proptest!` reads
/// them over any configuration: `PROPTEST_CASES=100000` searches longer than CI does
/// (with `PROPTEST_MAX_GLOBAL_REJECTS` raised where a test rejects some inputs).
pub fn cases(cases: u32) -> Config {
    Config {
        failure_persistence: Some(Box::new(ReplayOnly::default())),
        ..Config::with_cases(cases)
    }
}

/// Loads the failures recorded beside the test source as proptest's default does, and
/// saves nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct ReplayOnly(FileFailurePersistence);

impl FailurePersistence for ReplayOnly {
    fn load_persisted_failures2(&self, source_file: Option<&'static str>) -> Vec<PersistedSeed> {
        self.0.load_persisted_failures2(source_file)
    }

    fn save_persisted_failure2(
        &mut self,
        _source_file: Option<&'static str>,
        _seed: PersistedSeed,
        _shrunken_value: &dyn fmt::Debug,
    ) {
    }

    fn box_clone(&self) -> Box<dyn FailurePersistence> {
        Box::new(*self)
    }

    fn eq(&self, other: &dyn FailurePersistence) -> bool {
        other.as_any().downcast_ref::<ReplayOnly>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn a_failure_is_not_written_beside_the_source() {
        let mut persistence = cases(1).failure_persistence.expect("a persistence");
        let seed: PersistedSeed =
            "cc c1cf214e39d0307928fbe7b53f609cdde264a9f534a2d1a83be59796621b39fe"
                .parse()
                .expect("a seed line");
        persistence.save_persisted_failure2(Some(file!()), seed, &"a failing value");
        // proptest's default would have made this folder for a test in `src/`.
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("proptest-regressions");
        assert!(!folder.exists(), "{} was written", folder.display());
        assert!(persistence
            .load_persisted_failures2(Some(file!()))
            .is_empty());
    }
}
