//! Quick pairing, as lichess's lobby: a person asks for a game (a rule set, its parameters, a
//! clock, rated or not) and joins the oldest open game that someone else opened for the
//! same, or opens one and waits in it. The open games are rows of the database, found by
//! their key (`games.seek`) and joined by a conditional write, so every node pairs with
//! every other; one whose creator leaves its page is withdrawn (`withdraw_deserted`).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use crate::api::{GameState, NewGame, QuickPairing};
use crate::error::ApiError;
use crate::game::Actor;
use crate::ids::now_ms;
use crate::model::{GameSpec, Status};
use crate::storage::{SessionRow, StorageError};

use super::super::{lock, Action, Hub, LiveGame};

/// Open games of one key looked at in a try.
const LOOKED_AT: u32 = 8;
/// Tries before quick pairing gives up: each one loses only to another pairing of the same
/// key at the same moment.
const TRIES: usize = 4;

impl Hub {
    /// `session` (a person at `address`) asks for `request`: the game it joined (and
    /// `true`), or the open game it waits in (and `false`).
    pub async fn quick_pair(
        self: &Arc<Hub>,
        session: &SessionRow,
        address: IpAddr,
        request: QuickPairing,
    ) -> Result<(GameState, bool), ApiError> {
        let spec = GameSpec::for_players(request.game, &request.params, false)
            .map_err(|e| ApiError::BadRequest(format!("{}: {e}", request.game)))?;
        if request.rated {
            Self::check_rated(&spec, request.clock, &session.seat())?;
        }
        let key = spec.seek_key(request.clock, request.rated);
        let request = NewGame::from(request);
        let mine = |creator: &Option<String>| creator.as_deref() == Some(session.id.as_str());
        for _ in 0..TRIES {
            let open = self.storage.open_games(&key, LOOKED_AT).await?;
            let others = open.iter().filter(|(_, creator)| !mine(creator));
            match open.iter().find(|(_, creator)| mine(creator)) {
                // Waiting already (a second click, or someone opened one at the same moment):
                // for the oldest other open game, if any.
                Some((own, _)) => {
                    let Some((theirs, _)) = others.clone().next() else {
                        return Ok((self.state(own, Some(&session.id)).await?, false));
                    };
                    if let Some(state) = self.swap(session, own, theirs).await? {
                        return Ok((state, true));
                    }
                    // Its own was joined meanwhile (or theirs was taken): look again.
                    let state = self.state(own, Some(&session.id)).await?;
                    if state.status == Status::Live {
                        return Ok((state, true));
                    }
                }
                None => {
                    for (id, _) in others {
                        if let Some(state) = self.try_to_join(session, id).await? {
                            return Ok((state, true));
                        }
                    }
                    // Opened, then looked at again: someone may have opened one meanwhile.
                    self.create_game(session, address, request.clone()).await?;
                }
            }
        }
        Err(ApiError::Busy(
            "many people are pairing for this game at once; try again",
        ))
    }

    /// `session` gives up its open game `own` for someone else's open game `theirs`, in one
    /// transaction: its own is withdrawn exactly when it takes the seat of theirs, so that
    /// two people who opened games at the same moment end in one game, not in two or none.
    /// The game joined, or `None` when either game changed first.
    async fn swap(
        self: &Arc<Hub>,
        session: &SessionRow,
        own: &str,
        theirs: &str,
    ) -> Result<Option<GameState>, ApiError> {
        let (own_live, their_live) = (self.find(own).await?, self.find(theirs).await?);
        // Every swap locks the two games in the order of their ids (two swaps of one pair
        // wait for each other, never deadlock), and writes them in that order too.
        let own_first = own < theirs;
        let (first, second) = match own_first {
            true => (&own_live, &their_live),
            false => (&their_live, &own_live),
        };
        let (mut a, mut b) = (first.game.lock().await, second.game.lock().await);
        let (own_game, their_game) = match own_first {
            true => (&mut *a, &mut *b),
            false => (&mut *b, &mut *a),
        };
        self.reload(own_game).await?;
        self.reload(their_game).await?;
        let seat = session.seat();
        if let Some(other) = their_game.seats.iter().flatten().next() {
            if self.check_not_blocked(&seat, other).await.is_err() {
                return Ok(None);
            }
        }
        let at = now_ms();
        let (Ok(withdrawal), Ok(joining)) = (
            own_game.prepare_withdraw(Actor::Session(&session.id), at),
            their_game.prepare_join(seat, None, Instant::now(), at),
        ) else {
            return Ok(None);
        };
        let mut writes = [withdrawal.writes.clone(), joining.writes.clone()];
        if !own_first {
            writes.reverse();
        }
        match self.storage.commit(writes.concat()).await {
            Ok(()) => {}
            Err(StorageError::Outdated) => {
                self.reload(own_game).await?;
                self.reload(their_game).await?;
                return Ok(None);
            }
            Err(error) => return Err(error.into()),
        }
        self.applied(&own_live, own_game, withdrawal, None).await;
        self.applied(&their_live, their_game, joining, None).await;
        self.start_referee(their_live.clone());
        self.acted(&their_live, their_game, Actor::Session(&session.id))
            .await;
        Ok(Some(their_game.state(Some(&session.id), Instant::now())))
    }

    /// `session` takes the open seat of open game `id`, unless someone took it first (or
    /// its creator blocks them, or they it): the game then, or `None`.
    async fn try_to_join(
        self: &Arc<Hub>,
        session: &SessionRow,
        id: &str,
    ) -> Result<Option<GameState>, ApiError> {
        let Ok(live) = self.find(id).await else {
            return Ok(None);
        };
        match self.take_seat(&live, session, None).await {
            Ok(state) => Ok(Some(state)),
            Err(ApiError::Conflict(_) | ApiError::Blocked(_) | ApiError::NotFound(_)) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Withdraws the open games held here whose creator has left their page (no WebSocket of
    /// theirs on it for two pings): nobody is left to play the person who would join.
    pub(crate) async fn withdraw_deserted(self: &Arc<Hub>) {
        let games: Vec<Arc<LiveGame>> = lock(&self.live).values().cloned().collect();
        for live in games {
            let creator = {
                let game = live.game.lock().await;
                if game.status != Status::Waiting || game.seek.is_none() {
                    continue;
                }
                let Some(creator) = game.creator.clone() else {
                    continue;
                };
                let Some(color) = game.color_of(&creator) else {
                    continue;
                };
                match self.gone_since(&live, &game, color).await {
                    Ok(Some(_)) => creator,
                    _ => continue,
                }
            };
            match self
                .act(&live, Actor::Session(&creator), Action::Withdraw)
                .await
            {
                Ok(_) => tracing::info!(game = %live.id, "open game withdrawn: its creator left"),
                Err(error) => tracing::debug!(game = %live.id, %error, "not withdrawn"),
            }
        }
    }
}
