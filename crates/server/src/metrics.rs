//! What the server counts for Prometheus (docs/operations.md, "Metrics"). Where something
//! happens, the `metrics` crate's macros count it; metrics-exporter-prometheus keeps the
//! values and renders them in Prometheus's text format at `/metrics` on the address of
//! `--metrics`. Without that option no recorder is installed and the macros cost nothing.

use std::sync::OnceLock;
use std::time::Instant;

use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, Unit};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

/// Buckets of every latency histogram, in seconds: from a fast request to a slow search.
const BUCKETS: [f64; 14] = [
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

static RECORDER: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process's recorder, installed on the first call (one per process: tests run several
/// servers in one); `None` if another recorder was installed first.
pub fn recorder() -> Option<&'static PrometheusHandle> {
    RECORDER
        .get_or_init(|| {
            let recorder = (PrometheusBuilder::new().set_buckets(&BUCKETS).ok()?).build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok()?;
            describe();
            Some(handle)
        })
        .as_ref()
}

fn describe() {
    describe_counter!(
        "toroid_http_requests_total",
        "API requests answered, by route pattern, method and status"
    );
    describe_histogram!(
        "toroid_http_request_duration_seconds",
        Unit::Seconds,
        "Time to answer an API request, by route pattern and method"
    );
    describe_gauge!(
        "toroid_websockets",
        "Open WebSockets: people's game sockets and bots' sockets"
    );
    describe_gauge!(
        "toroid_bots_connected",
        "Registered bots connected to this node"
    );
    describe_gauge!(
        "toroid_games_held",
        "Unfinished games (waiting or live) this node holds, by rule set"
    );
    describe_gauge!(
        "toroid_referee_leases",
        "Live games this node referees (its leases, on a cluster)"
    );
    describe_counter!(
        "toroid_moves_total",
        "Moves committed by this node, by rule set"
    );
    describe_histogram!(
        "toroid_storage_commit_seconds",
        Unit::Seconds,
        "Time to commit one batch of writes (group commit)"
    );
    describe_counter!(
        "toroid_storage_errors_total",
        "Batches of writes the database refused or failed"
    );
    describe_histogram!(
        "toroid_house_queue_seconds",
        Unit::Seconds,
        "Time a house bot's or an analysis's search waited for a core"
    );
    describe_histogram!(
        "toroid_house_search_seconds",
        Unit::Seconds,
        "Time a house bot's move or an analysis took, waiting included"
    );
    describe_counter!(
        "toroid_sign_ins_total",
        "Sign-ins with a password, by result (ok, failed, limited)"
    );
    describe_counter!(
        "toroid_limited_total",
        "Requests refused by a limit, by limit"
    );
    describe_counter!("toroid_redis_errors_total", "Redis commands that failed");
}

/// Counts one more refusal by the limit `name`.
pub fn limited(name: &'static str) {
    counter!("toroid_limited_total", "limit" => name).increment(1);
}

/// Counts one failed Redis command.
pub fn redis_error() {
    counter!("toroid_redis_errors_total").increment(1);
}

/// An open WebSocket of `kind` (`person` or `bot`), counted while it lives.
pub struct OpenSocket(&'static str);

impl OpenSocket {
    pub fn new(kind: &'static str) -> OpenSocket {
        gauge!("toroid_websockets", "kind" => kind).increment(1.0);
        OpenSocket(kind)
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        gauge!("toroid_websockets", "kind" => self.0).decrement(1.0);
    }
}

/// Seconds since `start`, for a histogram.
pub fn since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
}
