
B
,/job:localhost/replica:0/task:0/device:GPU:0
dense/MatMul‡­K