#ifndef HERALD_CCONCURRENCYHOOK_H
#define HERALD_CCONCURRENCYHOOK_H

/// Where the Swift runtime keeps its hook for enqueueing a job on the global executor
/// (`swift_task_enqueueGlobal_hook`, null until someone sets it). SwiftNIO finds it with
/// dlsym, which fails when the runtime is linked statically (its symbols are not exported);
/// a reference from C resolves it at link time either way.
void **herald_swift_task_enqueue_global_hook(void);

#endif
