//! Group commit: one task owns the only writing connection, takes every write that is waiting,
//! commits them in one transaction (one fsync for all of them) and then answers each. A write
//! is acknowledged only once it is durable.

use sqlx::{Any, AnyPool, Transaction};
use tokio::sync::{mpsc, oneshot};

use super::rows::{Challenged, Write};
use super::StorageError;
use crate::model::{name_key, Offer};

/// Most writes in one transaction; more wait for the next one.
const MAX_BATCH: usize = 2048;

/// Writes that commit together, and who waits for them.
pub struct Job {
    pub writes: Vec<Write>,
    pub done: oneshot::Sender<Result<(), StorageError>>,
}

/// Runs until every sender is dropped. `pool` has one connection, so writes never contend.
pub async fn run(pool: AnyPool, mut jobs: mpsc::Receiver<Job>) {
    let mut batch: Vec<Job> = Vec::new();
    while jobs.recv_many(&mut batch, MAX_BATCH).await > 0 {
        match commit(&pool, &batch).await {
            Ok(()) => batch.drain(..).for_each(|job| {
                let _ = job.done.send(Ok(()));
            }),
            // One bad write must not fail the others: commit each job on its own.
            Err(error) => {
                if batch.len() > 1 {
                    tracing::warn!(%error, jobs = batch.len(), "batch failed; retrying one by one");
                }
                for job in batch.drain(..) {
                    let result = commit(&pool, std::slice::from_ref(&job)).await;
                    let _ = job.done.send(result);
                }
            }
        }
    }
    pool.close().await;
}

/// Commits the writes of `jobs` in one transaction.
async fn commit(pool: &AnyPool, jobs: &[Job]) -> Result<(), StorageError> {
    let start = std::time::Instant::now();
    let committed = transaction(pool, jobs).await;
    metrics::histogram!("toroid_storage_commit_seconds").record(crate::metrics::since(start));
    // A conditional write that found its row changed is a race answered, not a failure.
    if let Err(StorageError::Database(_)) = committed {
        metrics::counter!("toroid_storage_errors_total").increment(1);
    }
    committed
}

async fn transaction(pool: &AnyPool, jobs: &[Job]) -> Result<(), StorageError> {
    let mut tx = pool.begin().await?;
    for write in jobs.iter().flat_map(|job| &job.writes) {
        apply(&mut tx, write).await?;
    }
    tx.commit().await?;
    Ok(())
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("rows serialize to JSON")
}

/// Ends every session signed in to account `account`.
async fn end_sessions_of(tx: &mut Transaction<'_, Any>, account: &str) -> Result<(), StorageError> {
    sqlx::query("DELETE FROM sessions WHERE account_id = $1")
        .bind(account)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Takes the name key `key` for `holder` (`account:ID`, `bot:ID`); the database refuses a
/// key another holds.
async fn hold_name(
    tx: &mut Transaction<'_, Any>,
    key: &str,
    holder: &str,
    at: i64,
) -> Result<(), StorageError> {
    sqlx::query("INSERT INTO names (name_key, holder, created_at) VALUES ($1, $2, $3)")
        .bind(key)
        .bind(holder)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn apply(tx: &mut Transaction<'_, Any>, write: &Write) -> Result<(), StorageError> {
    let query = match write {
        Write::Session(s) => sqlx::query(
            "INSERT INTO sessions (id, name, name_key, token_hash, created_at, last_seen_at,
                account_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&s.id)
        .bind(&s.name)
        .bind(name_key(&s.name))
        .bind(&s.token_hash)
        .bind(s.created_at)
        .bind(s.last_seen_at)
        .bind(&s.account_id),
        Write::Account(a) => {
            // The name's key first: of two players taking names alike, the key's primary
            // key refuses the second.
            hold_name(tx, &a.name_key, &format!("account:{}", a.id), a.created_at).await?;
            // A guest showing the name from before is marked as one: no guest shows an
            // account's name ("(" is in no name, so the mark cannot be typed).
            sqlx::query(
                "UPDATE sessions SET name = name || ' (guest)'
                 WHERE name_key = $1 AND account_id IS NULL",
            )
            .bind(&a.name_key)
            .execute(&mut **tx)
            .await?;
            sqlx::query(
                "INSERT INTO accounts (id, name, name_key, password_hash, created_at)
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&a.id)
            .bind(&a.name)
            .bind(&a.name_key)
            .bind(&a.password_hash)
            .bind(a.created_at)
        }
        Write::ClaimName {
            session,
            account,
            name,
            token_hash,
        } => {
            sqlx::query("UPDATE bots SET owner = $1 WHERE owner = $2")
                .bind(account)
                .bind(session)
                .execute(&mut **tx)
                .await?;
            sqlx::query(
                "UPDATE sessions SET account_id = $1, name = $2, token_hash = $4, name_key = $5
                 WHERE id = $3",
            )
            .bind(account)
            .bind(name)
            .bind(session)
            .bind(token_hash)
            .bind(name_key(name))
        }
        Write::SessionSeen { id, at } => {
            sqlx::query("UPDATE sessions SET last_seen_at = $1 WHERE id = $2")
                .bind(at)
                .bind(id)
        }
        Write::EndSession { id } => sqlx::query("DELETE FROM sessions WHERE id = $1").bind(id),
        Write::SetRole { account, role } => {
            sqlx::query("UPDATE accounts SET role = $1 WHERE id = $2")
                .bind(role)
                .bind(account)
        }
        Write::Ban { account, at } => {
            if at.is_some() {
                end_sessions_of(tx, account).await?;
                // Its bots' tokens are replaced by one nobody holds: they open nothing.
                sqlx::query("UPDATE bots SET token_hash = 'banned:' || id WHERE owner = $1")
                    .bind(account)
                    .execute(&mut **tx)
                    .await?;
            }
            sqlx::query("UPDATE accounts SET banned_at = $1 WHERE id = $2")
                .bind(at)
                .bind(account)
        }
        Write::SetPassword {
            account,
            password_hash,
            keep,
        } => {
            sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND id <> $2")
                .bind(account)
                .bind(keep.as_deref().unwrap_or_default())
                .execute(&mut **tx)
                .await?;
            sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
                .bind(password_hash)
                .bind(account)
        }
        Write::DeleteChat { id, at } => {
            sqlx::query("UPDATE chat SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL")
                .bind(at)
                .bind(id)
        }
        Write::HideGame { game_id, at } => {
            sqlx::query("UPDATE games SET hidden_at = $1 WHERE id = $2 AND hidden_at IS NULL")
                .bind(at)
                .bind(game_id)
        }
        Write::Challenge(c) => {
            let stored_clock = c.clock.map(|t| (t.initial_ms(), t.increment_ms()));
            // The account, the bot or the guest's session challenged: one of the three.
            let (mut account, mut bot, mut session) = (None, None, None);
            match &c.to {
                Challenged::Account { id, .. } => account = Some(id.clone()),
                Challenged::Bot { id, .. } => bot = Some(id.clone()),
                Challenged::Guest { session: id, .. } => session = Some(id.clone()),
            }
            sqlx::query(
                "INSERT INTO challenges (id, challenger, challenger_key, challenged_account,
                    challenged_bot, challenged_session, challenged_name, challenged_key, game,
                    params, clock_initial_ms, clock_increment_ms, color, rated, status,
                    created_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'open',
                    $15, $16)",
            )
            .bind(&c.id)
            .bind(serde_json::to_string(&c.from).expect("a seat serializes"))
            .bind(name_key(c.from.name()))
            .bind(account)
            .bind(bot)
            .bind(session)
            .bind(c.to.name().to_string())
            .bind(name_key(c.to.name()))
            .bind(c.spec.kind().name())
            .bind(c.spec.stored_params())
            .bind(stored_clock.map(|c| c.0))
            .bind(stored_clock.map(|c| c.1))
            .bind(c.color.name())
            .bind(i64::from(c.rated))
            .bind(c.created_at)
            .bind(c.expires_at)
        }
        Write::CloseChallenge {
            id,
            status,
            game_id,
            reason,
            at,
        } => {
            return expect_one(
                write,
                sqlx::query(
                    "UPDATE challenges SET status = $1, game_id = $2, reason = $3,
                        answered_at = $4
                     WHERE id = $5 AND status = 'open' AND expires_at > $4",
                )
                .bind(*status)
                .bind(game_id.clone())
                .bind(reason.clone())
                .bind(*at)
                .bind(id)
                .execute(&mut **tx)
                .await?,
            );
        }
        Write::Report(r) => sqlx::query(
            "INSERT INTO reports (id, reporter, reporter_name, player, player_key, chat_id,
                reason, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&r.id)
        .bind(&r.reporter)
        .bind(&r.reporter_name)
        .bind(&r.player)
        .bind(&r.player_key)
        .bind(&r.chat_id)
        .bind(&r.reason)
        .bind(r.at),
        Write::ResolveReport { id, by, at } => sqlx::query(
            "UPDATE reports SET resolved_at = $1, resolved_by = $2
             WHERE id = $3 AND resolved_at IS NULL",
        )
        .bind(at)
        .bind(by)
        .bind(id),
        Write::Block {
            blocker,
            name,
            at: Some(at),
        } => sqlx::query(
            "INSERT INTO blocks (blocker, blocked_key, blocked_name, at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (blocker, blocked_key) DO NOTHING",
        )
        .bind(blocker)
        .bind(name_key(name))
        .bind(name)
        .bind(at),
        Write::Block {
            blocker,
            name,
            at: None,
        } => sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked_key = $2")
            .bind(blocker)
            .bind(name_key(name)),
        Write::Setting { name, value } => sqlx::query(
            "INSERT INTO settings (name, value) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        )
        .bind(*name)
        .bind(value),
        Write::SignedInFrom {
            account,
            address_hash,
            at,
        } => sqlx::query(
            "INSERT INTO account_addresses (account_id, address_hash, last_at) VALUES ($1, $2, $3)
             ON CONFLICT (account_id, address_hash) DO UPDATE SET last_at = excluded.last_at",
        )
        .bind(account)
        .bind(address_hash)
        .bind(at),
        Write::Bot(b) => {
            hold_name(
                tx,
                &name_key(&b.name),
                &format!("bot:{}", b.id),
                b.created_at,
            )
            .await?;
            sqlx::query(
                "INSERT INTO bots (id, name, owner, token_hash, created_at)
             VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&b.id)
            .bind(&b.name)
            .bind(&b.owner)
            .bind(&b.token_hash)
            .bind(b.created_at)
        }
        Write::BotToken { id, token_hash } => {
            sqlx::query("UPDATE bots SET token_hash = $1 WHERE id = $2")
                .bind(token_hash)
                .bind(id)
        }
        // Its name's key stays held: the name never passes to another with its history.
        Write::DeleteBot { id } => sqlx::query("DELETE FROM bots WHERE id = $1").bind(id),
        Write::Rating {
            row,
            before,
            game_id,
        } => {
            sqlx::query(
                "INSERT INTO rating_history (player, pool, game_id, at, before, after)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&row.player)
            .bind(row.pool.name())
            .bind(game_id)
            .bind(row.updated_at)
            .bind(json(before))
            .bind(json(&row.rating))
            .execute(&mut **tx)
            .await?;
            // The player's first rated game inserts its row, a later one updates it: each
            // only if no other game's rating came between.
            let sql = match row.games {
                1 => {
                    "INSERT INTO ratings (player, pool, name, rating, rank, games, updated_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (player, pool) DO NOTHING"
                }
                _ => {
                    "UPDATE ratings SET name = $3, rating = $4, rank = $5, games = $6,
                        updated_at = $7
                     WHERE player = $1 AND pool = $2 AND games = $6 - 1"
                }
            };
            sqlx::query(sql)
                .bind(&row.player)
                .bind(row.pool.name())
                .bind(&row.name)
                .bind(json(&row.rating))
                .bind(row.rating.rating.round() as i64)
                .bind(row.games)
                .bind(row.updated_at)
        }
        Write::Tournament {
            id,
            state,
            status,
            created_at,
            read_at: None,
        } => sqlx::query(
            "INSERT INTO tournaments (id, state, status, created_at, version)
             VALUES ($1, $2, $3, $4, 1)",
        )
        .bind(id)
        .bind(state)
        .bind(*status)
        .bind(created_at),
        Write::Tournament {
            id,
            state,
            status,
            read_at: Some(version),
            ..
        } => sqlx::query(
            "UPDATE tournaments SET state = $1, status = $2, version = version + 1
             WHERE id = $3 AND version = $4",
        )
        .bind(state)
        .bind(*status)
        .bind(id)
        .bind(version),
        Write::ArenaJoin {
            bot_id,
            game,
            clock,
            node,
            until_ms,
            at,
        } => sqlx::query(
            "INSERT INTO arena (bot_id, game, initial_ms, increment_ms, node, until_ms,
                waiting_since, playing, last_opponent)
             VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, NULL)
             ON CONFLICT (bot_id) DO UPDATE SET game = $2, initial_ms = $3, increment_ms = $4,
                node = $5, until_ms = $6, waiting_since = $7, playing = NULL,
                last_opponent = NULL",
        )
        .bind(bot_id)
        .bind(game.name())
        .bind(clock.initial_ms())
        .bind(clock.increment_ms())
        .bind(node)
        .bind(until_ms)
        .bind(at),
        // Any number of rows, none included.
        Write::ArenaLeave { bot_id, node } => {
            sqlx::query("DELETE FROM arena WHERE node = $1 AND ($2 = '' OR bot_id = $2)")
                .bind(node)
                .bind(bot_id.as_deref().unwrap_or_default())
                .execute(&mut **tx)
                .await?;
            return Ok(());
        }
        Write::ArenaRenew { node, until_ms } => {
            sqlx::query("UPDATE arena SET until_ms = $1 WHERE node = $2")
                .bind(until_ms)
                .bind(node)
                .execute(&mut **tx)
                .await?;
            return Ok(());
        }
        Write::ArenaGame {
            bot_id,
            game,
            clock,
            was_playing,
            game_id,
            opponent,
        } => sqlx::query(
            "UPDATE arena SET playing = $1, last_opponent = $2
             WHERE bot_id = $3 AND game = $4 AND initial_ms = $5 AND increment_ms = $6
                AND COALESCE(playing, '') = $7",
        )
        .bind(game_id)
        .bind(opponent)
        .bind(bot_id)
        .bind(game.name())
        .bind(clock.initial_ms())
        .bind(clock.increment_ms())
        .bind(was_playing.as_deref().unwrap_or_default()),
        // Only forward: nodes' writes may arrive out of order.
        Write::BotSeen { id, at } => sqlx::query(
            "UPDATE bots SET seen_until = $1
             WHERE id = $2 AND (seen_until IS NULL OR seen_until < $1)",
        )
        .bind(at)
        .bind(id),
        Write::Offer {
            game_id,
            plies,
            offer,
            by,
        } => {
            // The column and status come from a closed set, never from input.
            let status = match offer {
                Offer::Draw | Offer::Takeback => "live",
                Offer::Rematch => "finished",
            };
            let sql = format!(
                "UPDATE games SET {} = $1 WHERE id = $2 AND status = '{status}' AND plies = $3",
                offer.column()
            );
            return expect_one(
                write,
                sqlx::query(&sql)
                    .bind(by.map(toroid_rules::Color::name))
                    .bind(game_id)
                    .bind(plies)
                    .execute(&mut **tx)
                    .await?,
            );
        }
        Write::Counting {
            game_id,
            plies,
            before,
            after,
        } => {
            return expect_one(
                write,
                sqlx::query(
                    "UPDATE games SET counting = $1
                     WHERE id = $2 AND status = 'live' AND plies = $3
                        AND (counting = $4 OR (counting IS NULL AND $5 = 0))",
                )
                .bind(after)
                .bind(game_id)
                .bind(plies)
                .bind(before.as_deref().unwrap_or(""))
                .bind(i64::from(before.is_some()))
                .execute(&mut **tx)
                .await?,
            );
        }
        Write::Takeback {
            game_id,
            plies,
            keep,
            clocks,
            at,
        } => {
            let rewound = sqlx::query(
                "UPDATE games SET plies = $1, draw_offer = NULL, takeback_offer = NULL,
                    counting = NULL, resumed_at = $2
                 WHERE id = $3 AND status = 'live' AND plies = $4",
            )
            .bind(keep)
            .bind(at)
            .bind(game_id)
            .bind(plies)
            .execute(&mut **tx)
            .await?;
            expect_one(write, rewound)?;
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(game_id)
                .bind(keep)
                .execute(&mut **tx)
                .await?;
            // The clocks as they stood go where a reload reads them: on the last move kept,
            // or, with none kept, on the game until its next move.
            let Some(clocks) = clocks else {
                return Ok(());
            };
            let kept_clocks = match keep {
                0 => sqlx::query("UPDATE games SET black_ms = $1, white_ms = $2 WHERE id = $3")
                    .bind(clocks[0])
                    .bind(clocks[1])
                    .bind(game_id),
                _ => sqlx::query(
                    "UPDATE moves SET black_ms = $1, white_ms = $2 WHERE game_id = $3 AND ply = $4",
                )
                .bind(clocks[0])
                .bind(clocks[1])
                .bind(game_id)
                .bind(keep - 1),
            };
            kept_clocks.execute(&mut **tx).await?;
            return Ok(());
        }
        Write::Rematch { game_id, next } => sqlx::query(
            "UPDATE games SET rematch_id = $1, rematch_offer = NULL
             WHERE id = $2 AND status = 'finished' AND rematch_id IS NULL",
        )
        .bind(next)
        .bind(game_id),
        Write::Chat(c) => sqlx::query(
            "INSERT INTO chat (id, game_id, room, author, author_key, body, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&c.id)
        .bind(&c.game_id)
        .bind(&c.room)
        .bind(&c.author)
        .bind(name_key(&c.author))
        .bind(&c.body)
        .bind(c.at),
        Write::Game(g) => sqlx::query(
            "INSERT INTO games (id, game, params, clock_initial_ms, clock_increment_ms,
                black, white, creator, invite, status, result, black_ms, white_ms,
                created_at, finished_at, plies, started_at, black_name, white_name, rated,
                creator_address, tournament_id, seek)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                $17, $18, $19, $20, $21, $22, $23)",
        )
        .bind(&g.id)
        .bind(g.spec.kind().name())
        .bind(g.spec.stored_params())
        .bind(g.clock.map(|c| c.initial_ms()))
        .bind(g.clock.map(|c| c.increment_ms()))
        .bind(g.seats[0].as_ref().map(json))
        .bind(g.seats[1].as_ref().map(json))
        .bind(&g.creator)
        .bind(&g.invite_hash)
        .bind(g.status.as_str())
        .bind(g.result.as_ref().map(json))
        .bind(g.final_clocks.map(|c| c[0]))
        .bind(g.final_clocks.map(|c| c[1]))
        .bind(g.created_at)
        .bind(g.finished_at)
        .bind(g.plies)
        .bind(g.started_at)
        .bind(g.seats[0].as_ref().map(|s| s.name().to_string()))
        .bind(g.seats[1].as_ref().map(|s| s.name().to_string()))
        .bind(i64::from(g.rated))
        .bind(g.creator_address.map(|a| a.to_string()))
        .bind(&g.tournament)
        .bind(&g.seek),
        Write::Seat {
            game_id,
            color,
            seat,
            at,
        } => {
            // The column name comes from a closed set, never from input.
            let sql = match color {
                toroid_rules::Color::Black => {
                    "UPDATE games SET black = $1, black_name = $4, status = 'live',
                        started_at = $2
                     WHERE id = $3 AND status = 'waiting' AND black IS NULL"
                }
                toroid_rules::Color::White => {
                    "UPDATE games SET white = $1, white_name = $4, status = 'live',
                        started_at = $2
                     WHERE id = $3 AND status = 'waiting' AND white IS NULL"
                }
            };
            sqlx::query(sql)
                .bind(json(seat))
                .bind(at)
                .bind(game_id)
                .bind(seat.name())
        }
        Write::NewInvite {
            game_id,
            invite_hash,
        } => sqlx::query("UPDATE games SET invite = $1 WHERE id = $2 AND status = 'waiting'")
            .bind(invite_hash)
            .bind(game_id),
        Write::Move(m) => {
            // The game's row first: its lock orders two moves for one game, and the move
            // must be the next ply of a live game, whichever server sends it.
            let next = sqlx::query(
                "UPDATE games SET plies = plies + 1, black_ms = NULL, white_ms = NULL
                 WHERE id = $1 AND status = 'live' AND plies = $2",
            )
            .bind(&m.game_id)
            .bind(m.ply)
            .execute(&mut **tx)
            .await?;
            expect_one(write, next)?;
            sqlx::query(
                "INSERT INTO moves (game_id, ply, mv, black_ms, white_ms, at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&m.game_id)
            .bind(m.ply)
            .bind(&m.notation)
            .bind(m.clocks.map(|c| c[0]))
            .bind(m.clocks.map(|c| c[1]))
            .bind(m.at)
        }
        Write::Resume { game_id, at } => {
            sqlx::query("UPDATE games SET resumed_at = $1 WHERE id = $2 AND status = 'live'")
                .bind(at)
                .bind(game_id)
        }
        Write::Finish {
            game_id,
            result,
            clocks,
            at,
        } => sqlx::query(
            "UPDATE games SET status = 'finished', result = $1, black_ms = $2, white_ms = $3,
                finished_at = $4, creator_address = NULL
             WHERE id = $5 AND status <> 'finished'",
        )
        .bind(json(result))
        .bind(clocks.map(|c| c[0]))
        .bind(clocks.map(|c| c[1]))
        .bind(*at)
        .bind(game_id),
        Write::Follow {
            follower,
            name,
            at: Some(at),
        } => sqlx::query(
            "INSERT INTO follows (follower, followed_key, followed_name, at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (follower, followed_key) DO NOTHING",
        )
        .bind(follower)
        .bind(name_key(name))
        .bind(name)
        .bind(at),
        Write::Follow {
            follower,
            name,
            at: None,
        } => sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed_key = $2")
            .bind(follower)
            .bind(name_key(name)),
        Write::Online { session, at } => {
            sqlx::query("UPDATE sessions SET online_at = $1 WHERE id = $2")
                .bind(*at)
                .bind(session)
        }
        Write::ReviewStart {
            game_id,
            owner,
            total,
            at,
            stale_before,
        } => sqlx::query(
            "INSERT INTO reviews (game_id, status, owner, total, points, created_at, updated_at)
             VALUES ($1, 'running', $2, $3, '[]', $4, $4)
             ON CONFLICT (game_id) DO UPDATE SET status = 'running', owner = $2, total = $3,
                points = '[]', updated_at = $4
             WHERE reviews.status <> 'done' AND reviews.updated_at < $5",
        )
        .bind(game_id)
        .bind(owner)
        .bind(*total)
        .bind(*at)
        .bind(*stale_before),
        Write::ReviewSave {
            game_id,
            owner,
            status,
            points,
            at,
        } => sqlx::query(
            "UPDATE reviews SET status = $1, points = $2, updated_at = $3
             WHERE game_id = $4 AND owner = $5",
        )
        .bind(*status)
        .bind(points)
        .bind(*at)
        .bind(game_id)
        .bind(owner),
        Write::PuzzlesMined { game_id, at } => sqlx::query(
            "UPDATE games SET mined_at = $1 WHERE id = $2 AND mined_at IS NULL",
        )
        .bind(*at)
        .bind(game_id),
        Write::Puzzle(p) => sqlx::query(
            "INSERT INTO puzzles (id, game, spec, moves, position, goal, answer, plies, game_id,
                ply, rating, rank, attempts, solved, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
             ON CONFLICT (spec, position) DO NOTHING",
        )
        .bind(&p.id)
        .bind(p.spec.kind().name())
        .bind(json(&p.spec))
        .bind(json(&p.moves))
        .bind(format!("{:016x}", p.position))
        .bind(p.goal.name())
        .bind(&p.answer)
        .bind(p.plies)
        .bind(&p.game_id)
        .bind(p.ply)
        .bind(json(&p.rating))
        .bind(p.rating.rating.round() as i64)
        .bind(p.attempts)
        .bind(p.solved)
        .bind(p.created_at),
        Write::PuzzleAttempt {
            account_id,
            puzzle_id,
            solved,
            at,
        } => sqlx::query(
            "INSERT INTO puzzle_attempts (account_id, puzzle_id, solved, at)
             VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, puzzle_id) DO NOTHING",
        )
        .bind(account_id)
        .bind(puzzle_id)
        .bind(i32::from(*solved))
        .bind(*at),
        Write::PuzzleRating {
            account_id,
            pool,
            rating,
            attempts,
            at,
        } => {
            // The first rated attempt inserts the row, a later one updates it: each only if
            // no other attempt came between.
            let sql = match attempts {
                1 => {
                    "INSERT INTO puzzle_ratings (account_id, pool, rating, attempts, updated_at)
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id, pool) DO NOTHING"
                }
                _ => {
                    "UPDATE puzzle_ratings SET rating = $3, attempts = $4, updated_at = $5
                     WHERE account_id = $1 AND pool = $2 AND attempts = $4 - 1"
                }
            };
            sqlx::query(sql)
                .bind(account_id)
                .bind(pool.name())
                .bind(json(rating))
                .bind(*attempts)
                .bind(*at)
        }
        Write::PuzzleScore {
            puzzle_id,
            rating,
            attempts,
            solved,
        } => sqlx::query(
            "UPDATE puzzles SET rating = $1, rank = $2, attempts = $3, solved = solved + $4
             WHERE id = $5 AND attempts = $3 - 1",
        )
        .bind(json(rating))
        .bind(rating.rating.round() as i64)
        .bind(*attempts)
        .bind(i64::from(*solved))
        .bind(puzzle_id),
        Write::Withdraw {
            game_id,
            result,
            at,
        } => sqlx::query(
            "UPDATE games SET status = 'finished', result = $1, finished_at = $2,
                creator_address = NULL
             WHERE id = $3 AND status = 'waiting'",
        )
        .bind(json(result))
        .bind(*at)
        .bind(game_id),
    };
    expect_one(write, query.execute(&mut **tx).await?)
}

/// Checks that `write` changed one row; if not, what its condition found changed.
fn expect_one(write: &Write, done: sqlx::any::AnyQueryResult) -> Result<(), StorageError> {
    if done.rows_affected() == 1 {
        return Ok(());
    }
    Err(match write {
        // Marks of use: nothing to mark (a bot deleted, a later mark stored first) is no
        // failure.
        Write::BotSeen { .. } | Write::SessionSeen { .. } => return Ok(()),
        // Acts already done (a player blocked or unblocked, a line deleted, a game hidden, a
        // report dealt with): twice is once.
        Write::Block { .. }
        | Write::Follow { .. }
        | Write::Online { .. }
        | Write::DeleteChat { .. }
        | Write::HideGame { .. }
        | Write::ResolveReport { .. } => return Ok(()),
        Write::Rating { .. } => StorageError::RatingChanged,
        Write::Tournament { .. } => StorageError::TournamentChanged,
        Write::CloseChallenge { .. } => StorageError::ChallengeChanged,
        Write::ArenaGame { .. } => StorageError::ArenaChanged,
        Write::ReviewStart { .. } | Write::ReviewSave { .. } => StorageError::ReviewTaken,
        // A position that is a puzzle already.
        Write::Puzzle(_) => return Ok(()),
        Write::PuzzlesMined { .. } => StorageError::Outdated,
        Write::PuzzleAttempt { .. } => StorageError::PuzzleTried,
        Write::PuzzleRating { .. } | Write::PuzzleScore { .. } => StorageError::RatingChanged,
        // A conditional write to a game that exists found it changed.
        _ if write.game_id().is_some() => StorageError::Outdated,
        _ => StorageError::NoSuchGame,
    })
}
