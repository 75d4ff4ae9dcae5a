import CLibPQ

/// A statement that goes with the next one instead of on its own (`Connection.sendWithNext`).
struct PendingStatement {
    let sql: SQL
    let texts: [String?]
    /// How its failure is told to the caller.
    let failure: (PostgresError) -> any Error
}

/// Statements whose only answer is "done" (a BEGIN, a role, the session's settings) wait and go
/// with the next statement that has rows to return, in one round trip (libpq's pipeline mode),
/// instead of one round trip each. Each still runs as it would alone, in order: a Sync follows
/// each one, so each is its own implicit transaction outside a transaction block, and inside one
/// the first failure aborts the block for all that follow, as it always did. The first failure,
/// in sending order, is what the statement they went with throws.
extension Connection {
    /// Sends `sql` with the next statement this connection runs, in the same round trip,
    /// instead of now. `failure` says how its error is told, when the statement it went with
    /// throws it. In a transaction, its COMMIT is the latest that carries it; a transaction that
    /// throws before anything else was sent sends nothing. Outside one, it waits for whatever
    /// statement comes next, if any: only for what may go with the connection (its settings).
    public func sendWithNext(_ sql: SQL, _ parameters: [any PostgresEncodable] = [], failure: @escaping (PostgresError) -> any Error = { $0 }) {
        pending.append(PendingStatement(sql: sql, texts: parameters.map(\.postgresText), failure: failure))
    }

    /// Sends what waits (`sendWithNext`) now, for work that cannot go with it (a script, COPY,
    /// a prepared statement, waiting for notifications).
    func sendPending() throws {
        guard !pending.isEmpty else { return }
        _ = try runPendingWith(nil)
    }

    /// Runs the waiting statements and then `statement` (SQL and its parameters' texts), if any,
    /// in one round trip; returns `statement`'s result, owned by the caller.
    func runPendingWith(_ statement: (sql: SQL, texts: [String?])?) throws -> OpaquePointer? {
        let waiting = pending
        pending.removeAll()
        sentBatches &+= 1
        let outgoing = waiting.map { ($0.sql, $0.texts) } + (statement.map { [($0.sql, $0.texts)] } ?? [])
        let results = try usesPipeline ? pipelined(outgoing) : oneByOne(outgoing)
        var first: (any Error)?
        for (index, result) in results.enumerated() where first == nil {
            guard case .failure(let error) = result else { continue }
            first = index < waiting.count ? waiting[index].failure(error) : error
        }
        // The statement's own result goes to the caller; the waiting ones' are only "done".
        let kept = first == nil && statement != nil ? results.count - 1 : nil
        for (index, result) in results.enumerated() where index != kept {
            if case .success(let result) = result { PQclear(result) }
        }
        if let first { throw first }
        guard let kept, case .success(let result) = results[kept] else { return nil }
        return result
    }

    /// Each statement in turn, a round trip each: libpq before 14 has no pipeline mode.
    private func oneByOne(_ outgoing: [(SQL, [String?])]) throws -> [Result<OpaquePointer, PostgresError>] {
        var results: [Result<OpaquePointer, PostgresError>] = []
        do {
            for (sql, texts) in outgoing {
                results.append(outcome(try execParams(sql, texts)))
            }
        } catch {
            for case .success(let result) in results { PQclear(result) }
            throw error
        }
        return results
    }

    /// All statements sent, each followed by a Sync, then every result read.
    private func pipelined(_ outgoing: [(SQL, [String?])]) throws -> [Result<OpaquePointer, PostgresError>] {
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError() }
        for (sql, texts) in outgoing {
            let sent = try withCStrings(texts) { pointers in
                PQsendQueryParams(handle, sql.text, Int32(pointers.count), nil, pointers, nil, nil, 0)
            }
            guard sent == 1, PQpipelineSync(handle) == 1 else { throw connectionError() }
        }
        var results: [Result<OpaquePointer, PostgresError>] = []
        do {
            for _ in outgoing {
                // A statement's result (one: none of these is COPY or several statements), the
                // end of its results, then its Sync.
                var outcome: Result<OpaquePointer, PostgresError>?
                while let result = PQgetResult(handle) {
                    if outcome == nil, PQresultStatus(result) != PGRES_PIPELINE_ABORTED {
                        outcome = self.outcome(result)
                    } else {
                        PQclear(result)
                    }
                }
                guard PQstatus(handle) == CONNECTION_OK else { throw connectionError() }
                guard let sync = PQgetResult(handle) else { throw connectionError() }
                let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
                PQclear(sync)
                guard synced else { throw connectionError() }
                // Aborted: an earlier statement failed (already reported), so this one did not run.
                results.append(
                    outcome ?? .failure(PostgresError(kind: .query, message: "not run: an earlier statement sent with it failed")))
            }
        } catch {
            for case .success(let result) in results { PQclear(result) }
            throw error
        }
        guard PQexitPipelineMode(handle) == 1 else {
            for case .success(let result) in results { PQclear(result) }
            throw connectionError()
        }
        return results
    }
}
