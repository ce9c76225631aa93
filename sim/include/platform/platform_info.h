// ascsim: vendor include name for the platform description (fe::PlatFormInfos, defined with the host contexts).
#ifndef ASCSIM_PLATFORM_PLATFORM_INFO_H_
#define ASCSIM_PLATFORM_PLATFORM_INFO_H_
#include <map>
#include <string>
#include <vector>
#include "ascsim/host/gert.h"
#include "ascsim/host/platform.h"
// The toolkit's platform_info.h brings std::map, std::vector and std::string into the global namespace; host code
// that includes it uses them unqualified.
using std::map;
using std::string;
using std::vector;
#endif  // ASCSIM_PLATFORM_PLATFORM_INFO_H_
