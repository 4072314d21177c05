//! Starting and stopping a server: storage opened and migrated, unfinished games restored,
//! then the HTTP listener.

use std::io::{self, IsTerminal};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::cluster::{Cluster, ClusterError};
use crate::config::{Config, LogFormat};
use crate::http::connections::{self, Places, Serving};
use crate::http::{router, AppState};
use crate::hub::Hub;
use crate::storage::{Storage, StorageError};

#[derive(Debug, Error)]
pub enum StartError {
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    #[error("cannot listen on {addr}: {error}")]
    Listen { addr: String, error: io::Error },
    #[error("cannot start: {0}")]
    Runtime(io::Error),
    #[error("the leave grace ({grace:?}) must be longer than two ping intervals ({ping:?}): a person with the game open is seen again only at each ping")]
    GraceTooShort { grace: Duration, ping: Duration },
}

/// A running server.
pub struct Server {
    /// Where it listens (the port chosen when the configuration said 0).
    pub addr: SocketAddr,
    hub: Arc<Hub>,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

/// How long a stop waits for the hub to hand its games and tournaments over (a node tells
/// the database and Redis), and then for open connections to close (each WebSocket is
/// closed with 1001): 3 s in all at most, Redis away or not.
const HANDOVER_GRACE: Duration = Duration::from_millis(900);
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Serves `/metrics` on `at` until the hub stops.
async fn serve_metrics(at: SocketAddr, hub: Arc<Hub>) -> Result<(), StartError> {
    crate::metrics::recorder();
    let listener = TcpListener::bind(at)
        .await
        .map_err(|error| StartError::Listen {
            addr: at.to_string(),
            error,
        })?;
    let app = crate::http::metrics_router(hub.clone());
    tokio::spawn(async move {
        let stopped = async move { hub.stopped().await };
        if let Err(error) = axum::serve(listener, app)
            .with_graceful_shutdown(stopped)
            .await
        {
            tracing::error!(%error, "the metrics address stopped serving");
        }
    });
    Ok(())
}

impl Server {
    pub async fn start(config: Config) -> Result<Server, StartError> {
        let (grace, ping) = (config.limits.leave_grace, config.limits.ping_interval);
        if grace <= ping * 2 {
            return Err(StartError::GraceTooShort { grace, ping });
        }
        let url = match &config.database {
            Some(url) => url.clone(),
            None => Storage::sqlite_url(&config.data)?,
        };
        if config.redis.is_some() && !url.starts_with("postgres") {
            return Err(ClusterError::NeedsPostgres.into());
        }
        let storage = Storage::open(&url).await?;
        let cluster = match &config.redis {
            Some(redis) => {
                let name = storage.cluster_name(config.new_cluster).await?;
                Some(Cluster::connect(redis, &name).await?)
            }
            None => None,
        };
        let hub = Hub::start(storage, config.limits.clone(), cluster).await?;
        let listen = |error| StartError::Listen {
            addr: format!("{}:{}", config.host, config.port),
            error,
        };
        let listener = TcpListener::bind((config.host, config.port))
            .await
            .map_err(listen)?;
        let addr = listener.local_addr().map_err(listen)?;
        let limits = config.limits;
        let serving = Serving {
            places: Places::new(
                limits.connections,
                limits.connections_per_ip,
                config.trusted_proxies,
            ),
            header_timeout: limits.header_timeout,
        };
        let app = router(AppState {
            hub: hub.clone(),
            limits: Arc::new(limits),
            allowed_origins: config.allowed_origins.into(),
            public_origins: config.public_origins.into(),
        });
        if let Some(at) = config.metrics {
            serve_metrics(at, hub.clone()).await?;
        }
        let (shutdown, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(connections::serve(listener, app, serving, async {
            let _ = stopped.await;
        }));
        Ok(Server {
            addr,
            hub,
            shutdown,
            task,
        })
    }

    /// Stops accepting, lets requests in flight finish (every acknowledged move is already
    /// stored), checkpoints SQLite's log into the database file, and returns.
    pub async fn stop(self) {
        if tokio::time::timeout(HANDOVER_GRACE, self.hub.stop())
            .await
            .is_err()
        {
            tracing::warn!(
                "the handover took too long; the other nodes take over as leases expire"
            );
        }
        let _ = self.shutdown.send(());
        let mut task = self.task;
        if tokio::time::timeout(STOP_GRACE, &mut task).await.is_err() {
            task.abort();
        }
        self.hub.checkpoint().await;
    }
}

/// Runs a server until Ctrl-C or SIGTERM (`toroid serve`).
pub fn run(config: Config) -> Result<(), StartError> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr);
    let _ = match config.log_format {
        LogFormat::Text => logs.with_ansi(io::stderr().is_terminal()).try_init(),
        LogFormat::Json => logs.json().flatten_event(true).try_init(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    let where_ = match (&config.database, &config.redis) {
        (Some(_), Some(_)) => "the database of --database; a node of the cluster of --redis".into(),
        (Some(_), None) => "the database of --database".to_string(),
        (None, _) => config.data.join("toroid.sqlite3").display().to_string(),
    };
    let result = runtime.block_on(async {
        let server = Server::start(config).await?;
        println!(
            "toroid: serving on http://{}/ (data in {where_})",
            server.addr
        );
        shutdown_signal().await;
        tracing::info!("stopping");
        server.stop().await;
        Ok(())
    });
    // Searches on blocking threads end within their time cap; do not wait for them.
    runtime.shutdown_timeout(Duration::from_secs(1));
    result
}

/// Writes a consistent copy of the SQLite database in `data` to the new file `dest`, while a
/// server may be running on it (`toroid backup`).
pub fn backup(data: &std::path::Path, dest: &std::path::Path) -> Result<(), StartError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    Ok(runtime.block_on(Storage::backup(data, dest))?)
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
