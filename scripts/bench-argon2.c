/*
 * The Argon2id limit of this machine, for scripts/bench-requestpath.sh: THREADS threads hash a
 * password with libargon2 (Debian's libargon2-dev) at the server's parameters (Config/storykeep.json,
 * argon2: memory KiB, iterations, lanes; a 16-byte salt and a 32-byte hash, as PasswordHasher
 * makes them) for SECONDS, as fast as they can, and it prints the hashes per second of them all:
 * what logins per second could at most be, each login being one Argon2id verification.
 *
 *   gcc -O2 -o bench-argon2 scripts/bench-argon2.c -largon2 -lpthread
 *   ./bench-argon2 MEMORY_KIB ITERATIONS PARALLELISM THREADS SECONDS
 *   -> "argon2id m=19456,t=2,p=1 threads 2: 61.8 hashes/s (617 in 9.99 s)"
 *
 * A thread hashes with argon2id_hash_raw, which is what argon2id_verify does after decoding the
 * stored string: the same work as a login's check. No nice value is set (the server's hashing
 * threads run at nice 19, which changes nothing on an otherwise idle machine).
 */
#include <argon2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint32_t memory_kib, iterations, lanes;
static double seconds;
static atomic_long hashes;
static atomic_int failed;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *hash_until(void *deadline_pointer) {
    double deadline = *(double *)deadline_pointer;
    const char password[] = "seed-password";
    uint8_t salt[16], out[32];
    memset(salt, 0x5a, sizeof salt);
    while (now() < deadline) {
        int status = argon2id_hash_raw(iterations, memory_kib, lanes, password, strlen(password), salt, sizeof salt,
                                       out, sizeof out);
        if (status != ARGON2_OK) {
            fprintf(stderr, "bench-argon2: %s\n", argon2_error_message(status));
            atomic_store(&failed, 1);
            return NULL;
        }
        salt[0]++; /* a different salt each time, as each login's hash has its own */
        atomic_fetch_add(&hashes, 1);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s MEMORY_KIB ITERATIONS PARALLELISM THREADS SECONDS\n", argv[0]);
        return 2;
    }
    memory_kib = (uint32_t)strtoul(argv[1], NULL, 10);
    iterations = (uint32_t)strtoul(argv[2], NULL, 10);
    lanes = (uint32_t)strtoul(argv[3], NULL, 10);
    int threads = atoi(argv[4]);
    seconds = atof(argv[5]);
    if (threads < 1 || threads > 256 || seconds <= 0) {
        fprintf(stderr, "bench-argon2: THREADS 1 to 256, SECONDS above 0\n");
        return 2;
    }
    pthread_t workers[256];
    double started = now(), deadline = started + seconds;
    for (int i = 0; i < threads; i++) pthread_create(&workers[i], NULL, hash_until, &deadline);
    for (int i = 0; i < threads; i++) pthread_join(workers[i], NULL);
    double elapsed = now() - started;
    if (atomic_load(&failed)) return 1;
    long done = atomic_load(&hashes);
    printf("argon2id m=%u,t=%u,p=%u threads %d: %.1f hashes/s (%ld in %.2f s)\n", memory_kib, iterations, lanes, threads,
           (double)done / elapsed, done, elapsed);
    return 0;
}
