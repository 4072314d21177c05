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

    /// Counts one more attempt by `who`; whether it is within the limit.
    pub async fn allows(&self, cluster: Option<&Cluster>, who: &K) -> bool {
        if let Some(cluster) = cluster {
            let who = who.to_string();
            match (cluster.attempt(self.what, &who, self.limit, self.window)).await {
                Ok(allowed) => return allowed,
                Err(error) => {
                    tracing::warn!(%error, what = self.what, "cannot count in Redis; counting here")
                }
            }
        }
        self.here.check_key(who).is_ok()
    }
}
