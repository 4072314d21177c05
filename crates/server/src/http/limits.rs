//! Limits on what one client may use: open connections (in all and per IP address, counted
//! at accept), and HTTP requests per second per IP address.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::serve::{IncomingStream, Listener};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;
use crate::hub::lock;

/// Accepts connections while fewer than the limit are open, and closes at once a connection
/// from an address that already has its share open.
pub struct LimitedListener {
    inner: TcpListener,
    open: Arc<Semaphore>,
    per_ip: usize,
    by_ip: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl LimitedListener {
    pub fn new(inner: TcpListener, connections: usize, per_ip: usize) -> LimitedListener {
        LimitedListener {
            inner,
            open: Arc::new(Semaphore::new(connections.max(1))),
            per_ip: per_ip.max(1),
            by_ip: Arc::default(),
        }
    }
}

/// An accepted connection; dropping it gives its place back.
pub struct LimitedStream {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    ip: IpAddr,
    by_ip: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for LimitedStream {
    fn drop(&mut self) {
        let mut by_ip = lock(&self.by_ip);
        if let Some(n) = by_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                by_ip.remove(&self.ip);
            }
        }
    }
}

impl Listener for LimitedListener {
    type Io = LimitedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (LimitedStream, SocketAddr) {
        loop {
            let permit = self
                .open
                .clone()
                .acquire_owned()
                .await
                .expect("the semaphore is never closed");
            let (stream, addr) = Listener::accept(&mut self.inner).await;
            let ip = addr.ip();
            {
                let mut by_ip = lock(&self.by_ip);
                let n = by_ip.entry(ip).or_insert(0);
                if *n >= self.per_ip {
                    tracing::warn!(%ip, "connection refused: too many from this address");
                    continue;
                }
                *n += 1;
            }
            let _ = stream.set_nodelay(true);
            let stream = LimitedStream {
                stream,
                _permit: permit,
                ip,
                by_ip: self.by_ip.clone(),
            };
            return (stream, addr);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// The peer's address of a connection, for handlers (`ConnectInfo<ClientAddr>`).
#[derive(Copy, Clone, Debug)]
pub struct ClientAddr(pub SocketAddr);

impl Connected<IncomingStream<'_, LimitedListener>> for ClientAddr {
    fn connect_info(stream: IncomingStream<'_, LimitedListener>) -> ClientAddr {
        ClientAddr(*stream.remote_addr())
    }
}

impl AsyncRead for LimitedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for LimitedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

fn quota(per_second: u32, burst: u32) -> Quota {
    let nz = |n: u32| NonZeroU32::new(n.max(1)).expect("at least 1");
    Quota::per_second(nz(per_second)).allow_burst(nz(burst))
}

/// Requests per second per IP address.
pub fn request_limiter(per_second: u32, burst: u32) -> Arc<DefaultKeyedRateLimiter<IpAddr>> {
    let limiter = Arc::new(RateLimiter::keyed(quota(per_second, burst)));
    // Forget idle addresses now and then, so the table stays small.
    let weak = Arc::downgrade(&limiter);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            every.tick().await;
            match weak.upgrade() {
                Some(limiter) => limiter.retain_recent(),
                None => return,
            }
        }
    });
    limiter
}

/// Messages per second on one WebSocket.
pub fn message_limiter(per_second: u32, burst: u32) -> DefaultDirectRateLimiter {
    RateLimiter::direct(quota(per_second, burst))
}

/// Middleware: refuses a request over its address's rate with 429.
pub async fn limit_requests(
    State(limiter): State<Arc<DefaultKeyedRateLimiter<IpAddr>>>,
    ConnectInfo(ClientAddr(addr)): ConnectInfo<ClientAddr>,
    request: Request,
    next: Next,
) -> Response {
    match limiter.check_key(&addr.ip()) {
        Ok(()) => next.run(request).await,
        Err(_) => ApiError::RateLimited.into_response(),
    }
}
