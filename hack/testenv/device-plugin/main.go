// ascend-device-plugin: a small kubelet device plugin (API v1beta1) that advertises huawei.com/Ascend910 devices on
// the hermetic test cluster's real node, so the real scheduler and kubelet place NPU-requesting pods there.
//
// There is no NPU here. Each advertised device gets stand-in device nodes (the null device's major/minor, created in
// -dev-dir, the host's /dev on the test node) at the paths Ascend Docker Runtime injects on real hardware (/dev/davinci<N>, /dev/davinci_manager,
// /dev/devmm_svm, /dev/hisi_hdc), and Allocate hands the container ASCEND_VISIBLE_DEVICES with the chip indices, as
// MindCluster's plugin does (../shared/reference/k8s-design.md §2.4). Workloads in such pods use the sim backend.
//
// The plugin re-registers whenever the kubelet restarts (the kubelet deletes every plugin socket when it starts).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	pluginapi "k8s.io/kubelet/pkg/apis/deviceplugin/v1beta1"
)

type plugin struct {
	pluginapi.UnimplementedDevicePluginServer
	devices []*pluginapi.Device
	devDir  string
}

func (p *plugin) GetDevicePluginOptions(context.Context, *pluginapi.Empty) (*pluginapi.DevicePluginOptions, error) {
	return &pluginapi.DevicePluginOptions{}, nil
}

// ListAndWatch sends the device list once; the stand-in devices never change health.
func (p *plugin) ListAndWatch(_ *pluginapi.Empty, s grpc.ServerStreamingServer[pluginapi.ListAndWatchResponse]) error {
	if err := s.Send(&pluginapi.ListAndWatchResponse{Devices: p.devices}); err != nil {
		return err
	}
	<-s.Context().Done()
	return nil
}

func (p *plugin) GetPreferredAllocation(context.Context, *pluginapi.PreferredAllocationRequest) (*pluginapi.PreferredAllocationResponse, error) {
	return &pluginapi.PreferredAllocationResponse{}, nil
}

func (p *plugin) PreStartContainer(context.Context, *pluginapi.PreStartContainerRequest) (*pluginapi.PreStartContainerResponse, error) {
	return &pluginapi.PreStartContainerResponse{}, nil
}

// Allocate: the chips' indices in ASCEND_VISIBLE_DEVICES and their device nodes, plus the shared control nodes.
func (p *plugin) Allocate(_ context.Context, req *pluginapi.AllocateRequest) (*pluginapi.AllocateResponse, error) {
	out := &pluginapi.AllocateResponse{}
	for _, cr := range req.ContainerRequests {
		var idx []int
		for _, id := range cr.DevicesIds {
			n, err := strconv.Atoi(strings.TrimPrefix(id, "Ascend910-"))
			if err != nil {
				return nil, fmt.Errorf("unknown device %q", id)
			}
			idx = append(idx, n)
		}
		sort.Ints(idx)
		resp := &pluginapi.ContainerAllocateResponse{Envs: map[string]string{}}
		var vis []string
		for _, n := range idx {
			vis = append(vis, strconv.Itoa(n))
			resp.Devices = append(resp.Devices, p.node(fmt.Sprintf("davinci%d", n)))
		}
		for _, shared := range []string{"davinci_manager", "devmm_svm", "hisi_hdc"} {
			resp.Devices = append(resp.Devices, p.node(shared))
		}
		resp.Envs["ASCEND_VISIBLE_DEVICES"] = strings.Join(vis, ",")
		out.ContainerResponses = append(out.ContainerResponses, resp)
		log.Printf("allocate %v -> ASCEND_VISIBLE_DEVICES=%s", cr.DevicesIds, resp.Envs["ASCEND_VISIBLE_DEVICES"])
	}
	return out, nil
}

func (p *plugin) node(name string) *pluginapi.DeviceSpec {
	return &pluginapi.DeviceSpec{ContainerPath: "/dev/" + name, HostPath: filepath.Join(p.devDir, name), Permissions: "rw"}
}

// makeNodes creates the stand-in device nodes (character devices 1:3, what /dev/null is). dir is the host's /dev
// on the test node: in a user-namespaced pod runc cannot create device nodes and bind-mounts each one from the
// host path equal to its container path. A node of that name that is not a stand-in (a real NPU's) is never
// replaced: the plugin refuses to start.
func makeNodes(dir string, count int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := []string{"davinci_manager", "devmm_svm", "hisi_hdc"}
	for i := 0; i < count; i++ {
		names = append(names, fmt.Sprintf("davinci%d", i))
	}
	for _, n := range names {
		path := filepath.Join(dir, n)
		var st unix.Stat_t
		if err := unix.Lstat(path, &st); err == nil {
			if st.Mode&unix.S_IFMT == unix.S_IFCHR && st.Rdev == unix.Mkdev(1, 3) {
				continue // a stand-in of an earlier run
			}
			return fmt.Errorf("%s exists and is not a stand-in (character device 1:3): refusing to touch it", path)
		}
		if err := unix.Mknod(path, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
			return fmt.Errorf("mknod %s: %w", path, err)
		}
	}
	return nil
}

func serve(p *plugin, pluginDir, socketName, resource string) (*grpc.Server, error) {
	sock := filepath.Join(pluginDir, socketName)
	_ = os.Remove(sock)
	lis, err := net.Listen("unix", sock)
	if err != nil {
		return nil, err
	}
	srv := grpc.NewServer()
	pluginapi.RegisterDevicePluginServer(srv, p)
	go func() { _ = srv.Serve(lis) }()

	conn, err := grpc.NewClient("unix://"+filepath.Join(pluginDir, "kubelet.sock"),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		srv.Stop()
		return nil, err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = pluginapi.NewRegistrationClient(conn).Register(ctx, &pluginapi.RegisterRequest{
		Version: pluginapi.Version, Endpoint: socketName, ResourceName: resource})
	if err != nil {
		srv.Stop()
		return nil, fmt.Errorf("register with the kubelet: %w", err)
	}
	log.Printf("registered %s (%d devices) at %s", resource, len(p.devices), sock)
	return srv, nil
}

func main() {
	pluginDir := flag.String("plugin-dir", pluginapi.DevicePluginPath, "the kubelet's device-plugins directory")
	devDir := flag.String("dev-dir", "", "where to create the stand-in device nodes")
	resource := flag.String("resource", "huawei.com/Ascend910", "extended resource name")
	count := flag.Int("count", 8, "devices to advertise")
	flag.Parse()
	if *devDir == "" {
		log.Fatal("-dev-dir is required")
	}
	if err := makeNodes(*devDir, *count); err != nil {
		log.Fatal(err)
	}
	p := &plugin{devDir: *devDir}
	for i := 0; i < *count; i++ {
		p.devices = append(p.devices, &pluginapi.Device{ID: fmt.Sprintf("Ascend910-%d", i), Health: pluginapi.Healthy})
	}
	socketName := "ascend-npu.sock"
	sock := filepath.Join(*pluginDir, socketName)
	var srv *grpc.Server
	for {
		if srv == nil {
			var err error
			if srv, err = serve(p, *pluginDir, socketName, *resource); err != nil {
				log.Printf("%v; retrying", err)
			}
		} else if _, err := os.Stat(sock); err != nil {
			log.Printf("socket %s gone (kubelet restarted): registering again", sock)
			srv.Stop()
			srv = nil
			continue
		}
		time.Sleep(time.Second)
	}
}
