#include "cauthshims.h"
