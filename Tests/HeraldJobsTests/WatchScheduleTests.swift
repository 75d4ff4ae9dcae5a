import Foundation
import HeraldJobs
import Testing

/// When a watching publisher runs: the rules on values, with a clock the test moves.
@Suite struct WatchScheduleTests {
    let start = ContinuousClock.now
    let wall = Date(timeIntervalSince1970: 1_780_272_000)

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
    func wall(_ milliseconds: Int) -> Date { wall.addingTimeInterval(Double(milliseconds) / 1000) }

    /// Settled after the first run: nothing due until something happens.
    func settled(_ settings: WatchSchedule.Settings = .init(debounce: .milliseconds(25), maxDelay: .seconds(1))) -> WatchSchedule {
        var schedule = WatchSchedule(settings: settings)
        #expect(schedule.wait(now: at(0), wall: wall(0)) == .zero, "a run is due at start")
        schedule.runStarted(wall: wall(0))
        return schedule
    }

    @Test func nothingIsDueWhileNothingHappens() {
        let schedule = settled()
        #expect(schedule.wait(now: at(0), wall: wall(0)) == nil)
        #expect(schedule.wait(now: at(3_600_000), wall: wall(3_600_000)) == nil)
    }

    @Test func aChangeRunsOnceQuietForTheDebounce() {
        var schedule = settled()
        schedule.noteChange(at: at(100))
        #expect(schedule.wait(now: at(100), wall: wall(100)) == .milliseconds(25))
        #expect(schedule.wait(now: at(124), wall: wall(124)) == .milliseconds(1))
        #expect(schedule.wait(now: at(125), wall: wall(125)) == .zero)
    }

    @Test func aBurstIsOneRun() {
        var schedule = settled()
        for milliseconds in stride(from: 100, through: 180, by: 10) { schedule.noteChange(at: at(milliseconds)) }
        #expect(schedule.wait(now: at(180), wall: wall(180)) == .milliseconds(25), "quiet for the debounce after the last")
        schedule.runStarted(wall: wall(205))
        #expect(schedule.wait(now: at(205), wall: wall(205)) == nil, "the run took every change of the burst")
    }

    @Test func aSteadyStreamStillRunsAtTheCap() {
        var schedule = settled()
        // An edit every 10 ms, never quiet for 25 ms: the first waits no more than a second.
        var now = 100
        while schedule.wait(now: at(now), wall: wall(now)) != .zero {
            schedule.noteChange(at: at(now))
            now += 10
            #expect(now <= 1_200)
        }
        #expect(now == 1_100, "a run a second after the first unpublished change")
    }

    @Test func aBoundaryRunsAtItsMomentWithoutDebounce() {
        var schedule = settled()
        schedule.boundary = wall(5_000)
        #expect(schedule.wait(now: at(1_000), wall: wall(1_000)) == .seconds(4))
        #expect(!schedule.boundaryReached(wall: wall(4_999)))
        #expect(schedule.wait(now: at(5_000), wall: wall(5_000)) == .zero)
        #expect(schedule.boundaryReached(wall: wall(5_000)))
        schedule.runStarted(wall: wall(5_000))
        #expect(schedule.boundary == nil, "a boundary that came is taken by the run")
        #expect(schedule.wait(now: at(5_001), wall: wall(5_001)) == nil)
    }

    @Test func aBoundaryIsNeverRunAHairEarly() {
        var schedule = settled()
        // 0.4 µs before the boundary is not the boundary: wait the microsecond, rounded up.
        schedule.boundary = Date(timeIntervalSince1970: 1_780_272_010.000_001)
        let wait = schedule.wait(now: at(0), wall: Date(timeIntervalSince1970: 1_780_272_010.000_000_6))
        #expect(wait != nil && wait! > .zero)
    }

    @Test func aFutureBoundarySurvivesARunForAChange() {
        var schedule = settled()
        schedule.boundary = wall(60_000)
        schedule.noteChange(at: at(100))
        schedule.runStarted(wall: wall(125))
        #expect(schedule.boundary == wall(60_000))
    }

    @Test func aRetryIsDueAtItsTime() {
        var schedule = settled()
        schedule.retryAt = at(300)
        #expect(schedule.wait(now: at(100), wall: wall(100)) == .milliseconds(200))
        #expect(schedule.wait(now: at(400), wall: wall(400)) == .zero, "late is due now, never negative")
    }

    @Test func aReconnectRunsWhateverWasNotified() {
        var schedule = settled()
        schedule.mustRun = true
        #expect(schedule.wait(now: at(0), wall: wall(0)) == .zero)
    }

    @Test func backoffGrowsToItsCapWithJitter() {
        let backoff = Backoff(base: .milliseconds(250), cap: .seconds(30))
        #expect(backoff.ceiling(attempt: 1) == .milliseconds(250))
        #expect(backoff.ceiling(attempt: 2) == .milliseconds(500))
        #expect(backoff.ceiling(attempt: 5) == .seconds(4))
        #expect(backoff.ceiling(attempt: 9) == .seconds(30))
        #expect(backoff.ceiling(attempt: 1000) == .seconds(30))
        #expect(backoff.delay(attempt: 5, fraction: 0.5) == .seconds(2))
        #expect(backoff.delay(attempt: 5, fraction: 1) == .seconds(4))
        #expect(backoff.delay(attempt: 5, fraction: 0) == .milliseconds(25), "never zero: a tenth of the base")
    }
}
