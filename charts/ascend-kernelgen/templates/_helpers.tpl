{{- define "kernelgen.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "kernelgen.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "kernelgen.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "kernelgen.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "kernelgen.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "kernelgen.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "kernelgen.selectorLabels" -}}
app.kubernetes.io/name: {{ include "kernelgen.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
{{- end -}}

{{- define "kernelgen.operatorServiceAccount" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (printf "%s-operator" (include "kernelgen.fullname" .)) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "kernelgen.jobServiceAccount" -}}
{{- if .Values.jobServiceAccount.create -}}
{{- default (printf "%s-jobs" (include "kernelgen.fullname" .)) .Values.jobServiceAccount.name -}}
{{- else -}}
{{- .Values.jobServiceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "kernelgen.operatorImage" -}}
{{- $img := .Values.operator.image -}}
{{- if $img.digest -}}
{{- printf "%s@%s" $img.repository $img.digest -}}
{{- else -}}
{{- printf "%s:%s" $img.repository (default .Chart.AppVersion $img.tag) -}}
{{- end -}}
{{- end -}}

{{/* The operator's config file (camelCase keys of kernelgen_operator.config.OperatorConfig). */}}
{{- define "kernelgen.operatorConfig" -}}
npuResourceName: {{ .Values.npu.resourceName | quote }}
npuNodeSelector: {{ .Values.npu.nodeSelector | toJson }}
npuTolerations: {{ .Values.npu.tolerations | toJson }}
cpuNodeSelector: {{ .Values.cpu.nodeSelector | toJson }}
cpuTolerations: {{ .Values.cpu.tolerations | toJson }}
images: {{ .Values.jobImages | toJson }}
imagePullPolicy: {{ .Values.jobImagePullPolicy | quote }}
hostNetwork: {{ .Values.jobHostNetwork }}
driverMounts: {{ .Values.npu.driverMounts.enabled }}
driverPaths: {{ .Values.npu.driverMounts.paths | toJson }}
{{- with .Values.evaluation.runtimeClassName }}
evaluateRuntimeClassName: {{ . | quote }}
{{- end }}
evaluateJail: {{ .Values.evaluation.jail }}
{{- with .Values.evaluation.seccompLocalhostProfile }}
evaluateSeccompProfile: {{ . | quote }}
{{- end }}
{{- with .Values.evaluation.appArmorLocalhostProfile }}
evaluateApparmorProfile: {{ . | quote }}
{{- end }}
scratchSizeLimit: {{ .Values.scratchSizeLimit | quote }}
{{- $sa := include "kernelgen.jobServiceAccount" . }}
{{- if $sa }}
serviceAccountName: {{ $sa | quote }}
{{- end }}
cpuRequest: {{ .Values.cpu.cpuRequest | quote }}
memoryRequest: {{ .Values.cpu.memoryRequest | quote }}
npuCpuRequest: {{ .Values.npu.cpuRequest | quote }}
npuMemoryRequest: {{ .Values.npu.memoryRequest | quote }}
shmSize: {{ .Values.npu.shmSize | quote }}
timerInterval: {{ .Values.timerInterval }}
metricsPort: {{ if .Values.metrics.enabled }}{{ .Values.metrics.port }}{{ else }}0{{ end }}
workers: {{ .Values.workers }}
{{- end -}}

{{/* Namespaces where runs live, as a JSON list. */}}
{{- define "kernelgen.runNamespaces" -}}
{{- $ns := .Values.runNamespaces | default .Values.operator.watchNamespaces | default (list .Release.Namespace) -}}
{{- $ns | toJson -}}
{{- end -}}
