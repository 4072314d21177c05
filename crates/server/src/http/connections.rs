//! Serving TCP connections: how many may be open (in all and per IP address), how long a
//! connection may take to send a request head, and who makes room when every place is taken.
//!
//! A connection that is waiting for a request head (just accepted, or idle between requests
//! on keep-alive) holds a place without doing anything, which is what slow and idle
//! attackers do. When every place is taken, a newcomer is let in by closing a waiting
//! connection of the address that holds the most places, the one that has waited longest:
//! attackers that reconnect as fast as they are closed evict each other, never a client
//! with a connection or two. Connections busy with a request, and upgraded WebSockets, are
//! never closed this way: WebSockets answer pings or are dropped (`heartbeat`).

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tower::ServiceExt;

use crate::hub::lock;

/// The peer's address of a connection, for handlers (`ConnectInfo<ClientAddr>`).
#[derive(Copy, Clone, Debug)]
pub struct ClientAddr(pub SocketAddr);

/// Whether the client reached the server over HTTPS, as a trusted proxy says with
/// `X-Forwarded-Proto: https` (the server itself speaks plain HTTP): then its cookies are
/// `Secure`.
#[derive(Copy, Clone, Debug)]
pub struct ViaHttps(pub bool);

/// The places for connections.
pub struct Places {
    limit: usize,
    per_ip: usize,
    /// Reverse proxies, whose connections carry many clients: no limit per address.
    proxies: Vec<IpAddr>,
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    open: usize,
    by_ip: HashMap<IpAddr, usize>,
    /// Connections waiting for a request head, by when they began to wait (oldest first),
    /// with their address.
    waiting: BTreeMap<u64, (IpAddr, Arc<Notify>)>,
    next: u64,
}

/// Why a connection was closed at once.
#[derive(Debug, PartialEq, Eq)]
enum Refusal {
    /// Its address has its share open.
    PerAddress,
    /// Every place is busy with a request or a WebSocket.
    Full,
}

impl Places {
    pub fn new(limit: usize, per_ip: usize, proxies: Vec<IpAddr>) -> Arc<Places> {
        Arc::new(Places {
            limit: limit.max(1),
            per_ip: per_ip.max(1),
            proxies,
            table: Mutex::default(),
        })
    }

    /// A place for a new connection from `ip`, waiting for its first request. When every
    /// place is taken, the connection that has waited longest is told to close.
    fn admit(self: &Arc<Places>, ip: IpAddr) -> Result<Arc<Place>, Refusal> {
        let mut table = lock(&self.table);
        let proxy = self.proxies.contains(&ip);
        if !proxy && table.by_ip.get(&ip).copied().unwrap_or(0) >= self.per_ip {
            return Err(Refusal::PerAddress);
        }
        if table.open >= self.limit {
            // The evicted connection keeps its place until it has closed, a moment later.
            let places_of = |ip: &IpAddr| table.by_ip.get(ip).copied().unwrap_or(0);
            let (&key, _) = (table.waiting.iter())
                .max_by_key(|(&key, (ip, _))| (places_of(ip), std::cmp::Reverse(key)))
                .ok_or(Refusal::Full)?;
            let (_, (_, evicted)) = table.waiting.remove_entry(&key).expect("just found");
            evicted.notify_one();
        }
        table.open += 1;
        *table.by_ip.entry(ip).or_insert(0) += 1;
        let place = Arc::new(Place {
            places: self.clone(),
            ip,
            evict: Arc::new(Notify::new()),
            waiting_since: Mutex::new(None),
        });
        place.wait_in(&mut table);
        Ok(place)
    }
}

/// One connection's place; the last holder to drop it (the connection, or the WebSocket it
/// became) gives it back.
struct Place {
    places: Arc<Places>,
    ip: IpAddr,
    /// Told when the connection must close to make room.
    evict: Arc<Notify>,
    /// Its key in `Table::waiting` while it waits for a request head.
    waiting_since: Mutex<Option<u64>>,
}

impl Place {
    fn wait_in(&self, table: &mut Table) {
        let key = table.next;
        table.next += 1;
        table.waiting.insert(key, (self.ip, self.evict.clone()));
        *lock(&self.waiting_since) = Some(key);
    }

    /// A request head came: the connection is busy until its response.
    fn busy(&self) {
        let mut table = lock(&self.places.table);
        if let Some(key) = lock(&self.waiting_since).take() {
            table.waiting.remove(&key);
        }
    }

    /// The response went out: the connection waits for its next request.
    fn idle(&self) {
        let mut table = lock(&self.places.table);
        if lock(&self.waiting_since).is_none() {
            self.wait_in(&mut table);
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut table = lock(&self.places.table);
        if let Some(key) = lock(&self.waiting_since).take() {
            table.waiting.remove(&key);
        }
        table.open -= 1;
        if let Some(n) = table.by_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                table.by_ip.remove(&self.ip);
            }
        }
    }
}

/// How connections are served.
pub struct Serving {
    pub places: Arc<Places>,
    /// Longest wait for a complete request head, after accepting or after the previous
    /// response (so it is also the keep-alive idle timeout).
    pub header_timeout: Duration,
}

/// Accepts and serves connections until `stop` resolves, then lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    serving: Serving,
    stop: impl Future<Output = ()>,
) {
    // Every connection holds a receiver; the sender learns when the last one is gone.
    let (stopping, stop_seen) = watch::channel(false);
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(serving.header_timeout);
    tokio::pin!(stop);
    loop {
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, most likely: give others time to close.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let place = match serving.places.admit(addr.ip()) {
            Ok(place) => place,
            Err(refusal) => {
                tracing::warn!(ip = %addr.ip(), ?refusal, "connection refused");
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let evict = place.evict.clone();
        let service = hyper::service::service_fn({
            let place = place.clone();
            let app = app.clone();
            let proxies = serving.places.proxies.clone();
            move |mut request: hyper::Request<Incoming>| {
                place.busy();
                let proxied = proxies.contains(&addr.ip());
                let client = match proxied {
                    true => {
                        forwarded_for(request.headers()).map_or(addr, |ip| SocketAddr::new(ip, 0))
                    }
                    false => addr,
                };
                let https = proxied && forwarded_https(request.headers());
                let extensions = request.extensions_mut();
                extensions.insert(ConnectInfo(ClientAddr(client)));
                extensions.insert(ViaHttps(https));
                let response = app.clone().oneshot(request);
                let place = place.clone();
                async move {
                    let response = response.await?;
                    // An upgraded connection is a WebSocket from now on: never idle.
                    if response.status() != StatusCode::SWITCHING_PROTOCOLS {
                        place.idle();
                    }
                    Ok::<_, Infallible>(response)
                }
            }
        });
        let io = TokioIo::new(PlacedStream {
            stream,
            _place: place,
        });
        let mut stop_seen = stop_seen.clone();
        let connection = builder.serve_connection(io, service).with_upgrades();
        tokio::spawn(async move {
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = evict.notified() => {
                    tracing::debug!(%addr, "closed an idle connection to make room");
                }
                _ = stop_seen.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    drop(stop_seen);
    stopping.closed().await;
}

/// The client's address that a trusted reverse proxy appended to `X-Forwarded-For` (the
/// last entry: the earlier ones came from the client and prove nothing).
fn forwarded_for(headers: &axum::http::HeaderMap) -> Option<IpAddr> {
    let value = headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()?
        .to_str()
        .ok()?;
    value.rsplit(',').next()?.trim().parse().ok()
}

/// Whether a trusted proxy says the client spoke HTTPS (its `X-Forwarded-Proto`, the last
/// one).
fn forwarded_https(headers: &axum::http::HeaderMap) -> bool {
    let last = headers.get_all("x-forwarded-proto").iter().next_back();
    let proto = last
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next());
    proto.is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
}

/// An accepted connection with its place.
struct PlacedStream {
    stream: TcpStream,
    _place: Arc<Place>,
}

impl AsyncRead for PlacedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for PlacedStream {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[test]
    fn a_full_house_closes_a_waiting_connection_of_the_busiest_address() {
        let places = Places::new(4, 4, Vec::new());
        let one = places.admit(ip(2)).unwrap();
        let attackers: Vec<_> = (0..3).map(|_| places.admit(ip(3)).unwrap()).collect();
        // The attackers' address holds the most places: one of its connections goes, the
        // oldest, though the lone client's waited longer.
        let _newcomer = places.admit(ip(4)).unwrap();
        assert_eq!(
            Arc::strong_count(&attackers[0].evict),
            1,
            "left the waiting list"
        );
        assert_eq!(Arc::strong_count(&one.evict), 2, "the lone client stays");
    }

    #[test]
    fn a_full_house_closes_the_longest_waiting_idle_connection() {
        let places = Places::new(2, 2, Vec::new());
        let first = places.admit(ip(2)).unwrap();
        let second = places.admit(ip(2)).unwrap();
        assert_eq!(places.admit(ip(2)).err(), Some(Refusal::PerAddress));
        // `first` is busy with a request, so `second` makes room.
        first.busy();
        let third = places.admit(ip(3)).unwrap();
        assert!(
            Arc::strong_count(&second.evict) == 1,
            "second left the waiting list"
        );
        drop(second);
        // Both remaining places are busy: nobody can be asked to leave.
        third.busy();
        assert_eq!(places.admit(ip(4)).err(), Some(Refusal::Full));
        // Once `first` has answered, it is the one waiting longest.
        first.idle();
        let _fourth = places.admit(ip(4)).unwrap();
        drop((first, third));
        assert_eq!(lock(&places.table).open, 1);
        assert_eq!(lock(&places.table).by_ip.len(), 1);
    }
}
