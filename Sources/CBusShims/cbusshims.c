#include "cbusshims.h"
