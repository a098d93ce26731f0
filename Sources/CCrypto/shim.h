/* SHA256_Init, _Update and _Final are deprecated in OpenSSL 3 for the EVP interface, but only they
   keep a hash's state in a plain struct that can be copied: HMACKey absorbs a key's pads once and
   copies the states for each MAC. Their deprecation warnings are left out. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
