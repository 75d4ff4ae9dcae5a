import CConcurrencyHook
import NIOCore
import NIOPosix

/// Swift concurrency's global executor moved onto NIO's event loops (what SwiftNIO's
/// `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor` does, which finds
/// the runtime's hook with dlsym and so never finds it in a binary linked with the static Swift
/// runtime). A request's task then runs on the event loop that read it, as do its body's reads
/// and its answer's writes, instead of hopping to Swift's pool and back for each, which under
/// load lengthened every acknowledgement. Nothing in the collector blocks a task's thread:
/// committing and waiting for commits run on threads of their own.
enum EventLoopExecutor {
    /// The hook's type while the runtime keeps it so (SwiftNIO checks the same compilers).
    typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Installs the hook unless one is set already (then, or on a later compiler, the
    /// collector stays on Swift's own pool: correct, only slower). Once per process, before the
    /// collector's first task.
    static func install() {
        #if compiler(<6.6)
            guard let slot = herald_swift_task_enqueue_global_hook(), slot.pointee == nil else { return }
            withUnsafeTemporaryAllocation(of: EnqueueGlobalHook.self, capacity: 1) { hook in
                guard let hook = hook.baseAddress else { return }
                // `any()` is the calling thread's own loop when it is one: no hop at all. Enqueued
                // as a loop enqueues its own jobs (EventLoop's default wraps each in a closure).
                hook.initialize(to: { job, _ in
                    let loop = MultiThreadedEventLoopGroup.singleton.any()
                    if let executor = loop as? any NIOSerialEventLoopExecutor {
                        executor.enqueue(ExecutorJob(job))
                    } else {
                        loop.enqueue(ExecutorJob(job))
                    }
                })
                hook.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) { slot.pointee = $0.pointee }
            }
        #endif
    }
}
