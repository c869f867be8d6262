/* devquery: the live device query through the CUDA runtime. Fills the same
 * structures the model files fill, so a local GPU is just another model. */
#ifndef GPULINT_DEVQUERY_H
#define GPULINT_DEVQUERY_H

#include <stdbool.h>

#include "model/model.h"

typedef struct devquery_device {
    int ordinal;
    gpu_arch arch;       /* limits from cudaDeviceProp; allocation rules from the cc's model */
    gpu_product product; /* name, SMs, clocks, memory bus */
    char driver[32];     /* "13.0" (cudaDriverGetVersion) */
    char runtime[32];
    char pci_bus_id[32];
} devquery_device;

/* The CUDA runtime gpulint was linked with ("13.0"); false without cudart. */
bool devquery_runtime_version(char *buf, size_t n);

typedef enum devquery_status {
    DEVQ_OK = 0,
    DEVQ_NO_RUNTIME, /* built without cudart */
    DEVQ_NO_DRIVER,  /* libcuda missing or too old */
    DEVQ_NO_DEVICE,  /* driver present, no GPU visible */
    DEVQ_ERROR,
} devquery_status;

/* Query up to max devices. `base` gives the allocation rules for a cc
 * (lookup callback; may return NULL for an unknown cc: the device's arch then
 * carries only what the runtime reports). message gets a one-line reason on
 * failure. */
devquery_status devquery_all(devquery_device *out, int max, int *n,
                             const gpu_arch *(*base)(int major, int minor, void *ctx), void *ctx,
                             char *message, int message_len);

#endif
