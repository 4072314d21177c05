//! Limits on attempts per key (an address, an account name) that hold across the nodes of a
//! cluster as on one server.

use std::fmt::Display;
use std::hash::Hash;
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::at_least_one;
use crate::cluster::Cluster;

/// At most `limit` attempts at `what` by one key in `window`: a burst of `limit`, then one
/// every `window / limit`. On a cluster they are counted in Redis for all the nodes together
/// (`Cluster::attempt`, the same algorithm as governor's); on one server, and while Redis
/// fails, by this node's own limiter.
pub struct SharedLimit<K: Hash + Eq + Clone> {
    what: &'static str,
    limit: u32,
    window: Duration,
    here: DefaultKeyedRateLimiter<K>,
}

impl<K: Hash + Eq + Clone + Display> SharedLimit<K> {
    pub fn new(what: &'static str, limit: u32, window: Duration) -> SharedLimit<K> {
        let burst = at_least_one(limit);
        let quota = Quota::with_period(window / burst.get())
            .expect("a limit's window is longer than zero")
            .allow_burst(burst);
        SharedLimit {
            what,
            limit,
            window,
            here: RateLimiter::keyed(quota),
        }
    }

    /// At most `per_second` attempts a second by one key, after a burst of `burst`.
    pub fn per_second(what: &'static str, per_second: u32, burst: u32) -> SharedLimit<K> {
        let window = Duration::from_secs(1) * burst.max(1) / per_second.max(1);
        SharedLimit::new(what, burst, window)
    }

    /// Counts one more attempt by `who`; whether it is within the limit.
    pub async fn allows(&self, cluster: Option<&Cluster>, who: &K) -> bool {
        let allowed = match cluster {
            Some(cluster) => {
                (cluster.attempt(self.what, &who.to_string(), self.limit, self.window))
                    .await
                    .unwrap_or_else(|| self.here.check_key(who).is_ok())
            }
            None => self.here.check_key(who).is_ok(),
        };
        if !allowed {
            crate::metrics::limited(self.what);
        }
        allowed
    }

    /// Forgets the keys that have not attempted anything lately, so the table stays small.
    pub fn forget_idle(&self) {
        self.here.retain_recent();
    }
}
